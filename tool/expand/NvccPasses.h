//===- NvccPasses.h - Stage 3b: the headers nvcc's own passes read --------===//
//
// metacu splices in the dialect headers nvcc's host pass includes
// (DialectHeaders.h). nvcc reads the output once more per architecture, in
// a device pass with __CUDA_ARCH__. Where one of those takes an #include
// the host pass did not (under #ifdef __CUDA_ARCH__, in the input or in a
// plain header it includes; a header name from a macro the passes define
// apart), a dialect header it leads to would reach nvcc unexpanded, and
// nvcc would stop at its first '@', far from the cause.
//
// The host slice notes, cheaply and conservatively, whether such an
// #include may lead to a dialect header (HostSliceResult::UnfollowedInclude);
// only then does this stage preprocess the input as each of nvcc's passes
// does and refuse the first dialect header one of them enters, at the
// #include that enters it.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_NVCCPASSES_H
#define METACU_EXPAND_NVCCPASSES_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"

#include "llvm/Support/Error.h"

namespace metacu {

/// Preprocesses \p File (its meta constructs masked) as nvcc's host pass and
/// its device pass for each of \p Archs do. The first dialect header one of
/// them enters is an error at the #include that enters it: a LocatedError
/// in \p File, or a SourceError in the user header that holds it.
llvm::Error checkNvccPasses(const SourceFile &File, const ScanResult &Scan,
                            const ArchList &Archs,
                            const HostSliceOptions &Opts);

} // namespace metacu

#endif
