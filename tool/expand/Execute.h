//===- Execute.h - Stage 4: run the generator in clang::Interpreter -------===//
//
// Compiles the generator program once (one partial translation unit after
// the prelude) and runs it. What it emits is recorded as events for the
// emit stage; its diagnostics, compile-time and run-time, are mapped back
// to the user's file through the source map.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_EXECUTE_H
#define METACU_EXPAND_EXECUTE_H

#include "toolchain/Arch.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"
#include "expand/Lower.h"
#include "support/SourceFile.h"

#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace metacu {

struct Event {
  enum Kind { Text, Code, Directive } K = Text;
  /// Text: input bytes [Begin, End). Code, Directive: Begin is the input
  /// offset the output is attributed to.
  unsigned Begin = 0, End = 0;
  std::string Generated;
  /// Directive: 0 #if, 1 #elif, 2 #else, 3 #endif, over the passes in Mask.
  int DirectiveKind = 0;
  uint64_t Mask = 0;
};

struct Expansion {
  std::vector<Event> Events;
  /// Data files meta code read (absolute or relative to the working
  /// directory), in the order first read.
  std::vector<std::string> DataFiles;
};

struct ExecuteOptions {
  CompileFlags Flags;
  CudaToolkit Toolkit = CudaToolkit::find();
  std::string RuntimeInclude;
  /// Where the precompiled generator library is kept; empty: none.
  std::string CacheDir;
};

/// Runs \p G. Errors are printed to stderr as they are mapped (there may be
/// several); the returned error is then an empty-message failure.
llvm::Expected<Expansion> execute(const SourceFile &File, const Generator &G,
                                  const ArchList &Archs,
                                  const ExecuteOptions &Opts);

} // namespace metacu

#endif
