//===- Check.h - Stage 3a: constructs metacu cannot expand where they are -===//
//
// The host slice learns where the preprocessor puts each part of the input;
// some places are out of metacu's reach. This step turns those findings
// into errors before anything is lowered, so the lowering only lowers:
//  - a dialect header the splice could not place, or one read through
//    -include (nvcc would read it first, as it is);
//  - a construct that does not parse, in a region the preprocessor keeps;
//  - a construct in a conditional that tests __CUDA_ARCH__ (metacu sees the
//    file once, not once per architecture) or __CUDACC__/__NVCC__ (which
//    its C++-mode reading does not define).
//  - '__nvvm_arch' where it has no value: in meta code (run once, before
//    any architecture is compiled), in a declaration meta code uses, and
//    in '#if'/'#elif' (the preprocessor cannot evaluate an enumerator).
// Constructs in regions the preprocessor skips are no error: they stay as
// written, as nvcc skips them too.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_CHECK_H
#define METACU_EXPAND_CHECK_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"

#include "llvm/Support/Error.h"

namespace metacu {

/// The first of the errors above, as a LocatedError: a meta header's at its
/// #include, then the constructs' in source order.
llvm::Error check(const ScanResult &Scan, const HostSliceResult &Slice);

} // namespace metacu

#endif
