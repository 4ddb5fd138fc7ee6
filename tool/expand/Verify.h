//===- Verify.h - metacu --verify: Clang checks the generated file --------===//
//
// A generated file that nvcc will reject is the user's to fix, at the
// user's line; --verify finds that out without nvcc. Clang's CUDA mode
// parses the generated text once per target architecture (device side,
// __CUDA_ARCH__ set as nvcc sets it) and once for the host, and its
// errors are reported where the #line map places them: the user's file
// and line, the passes that failed named in the message.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_VERIFY_H
#define METACU_EXPAND_VERIFY_H

#include "expand/HostSlice.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"

#include "llvm/Support/Error.h"

namespace metacu {

/// Parses \p Generated, the expansion of \p Input, for every pass of
/// \p Archs. Success if every pass parses without error.
llvm::Error verifyOutput(const SourceFile &Input, llvm::StringRef Generated,
                         const ArchList &Archs, const HostSliceOptions &Opts);

} // namespace metacu

#endif
