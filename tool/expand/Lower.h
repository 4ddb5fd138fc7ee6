//===- Lower.h - Stage 3: the construct tree becomes a generator program --===//
//
// The generator is one C++ program per input file. Meta code is copied into
// it as real C++; ordinary code becomes calls that emit input byte ranges;
// meta values in ordinary code become typed value-spelling calls; 'if
// codegen' conditions become per-architecture evaluations. Namespace-scope
// meta declarations are the program's globals; everything else runs in
// blocks that are initialised, in source order, when the program is loaded.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_LOWER_H
#define METACU_EXPAND_LOWER_H

#include "toolchain/Arch.h"
#include "expand/HostSlice.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"
#include "expand/SourceMap.h"

#include "llvm/Support/Error.h"
#include <string>

namespace metacu {

struct Generator {
  /// Compiled first: the generator library and nvvm_arch_t.
  std::string Prelude;
  /// The program proper, compiled as one unit.
  std::string Program;
  /// The length of the program's start: what comes before the first meta
  /// construct of the file's own text (its headers, the meta code of the
  /// dialect headers it includes), at namespace level, where a line and a
  /// run of the program end. An edit of meta code leaves it byte for byte
  /// as it was, so a long-running process can compile it once (Execute.h).
  /// 0: none.
  size_t StartEnd = 0;
  /// The length of the headers at the program's head (StartHeaders.h):
  /// before the file's first meta construct, whether or not it has a start
  /// (where it does, an edit of the start below them leaves them as they
  /// were), they are compiled once too. 0: none, or the whole start.
  size_t HeadersEnd = 0;
  /// Ties Program offsets back to the input.
  SourceMap Map;
  /// The 'if codegen' chains (input offsets) of device-only functions
  /// whose branches return: the host pass must see them (HostCopy.h).
  std::vector<unsigned> HostCopyChains;
};

/// Lowers \p Scan, which check() has found expandable with \p Slice.
/// '__host__ __device__ ' is inserted at the offsets of \p HostDevice
/// (ascending; Untagged.h).
llvm::Expected<Generator> lower(const SourceFile &File, const ScanResult &Scan,
                                const HostSliceResult &Slice,
                                const ArchList &Archs,
                                llvm::ArrayRef<unsigned> HostDevice = {});

} // namespace metacu

#endif
