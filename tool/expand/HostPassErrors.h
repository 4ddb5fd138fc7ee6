//===- HostPassErrors.h - The preprocessor errors nvcc's host pass meets --===//
//
// metacu's own readings of the input ignore what their parse makes of the
// code: a C++-mode parse of CUDA code has errors a CUDA compiler does not.
// But some of them are the preprocessor's in the user's files (an #include
// cycle, an unterminated #if or comment, an #error), where nvcc stops too:
// an expansion that succeeded there would report nvcc's failure as a
// success, and the error would surface only in nvcc's build. The host
// slice notes such an error (HostSliceResult::PreprocessorError); this
// stage then preprocesses the input as nvcc's host pass does, which
// settles whether nvcc meets it (a '#ifndef __CUDACC__ #error' is no
// error there), and reports the first one at its place.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_HOSTPASSERRORS_H
#define METACU_EXPAND_HOSTPASSERRORS_H

#include "expand/HostSlice.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/Support/Error.h"

namespace metacu {

/// Preprocesses \p File (its meta constructs masked) as nvcc's host pass
/// does. The first error of the preprocessor in a user's file, or a fatal
/// one anywhere, is returned at its place: a LocatedError in \p File, or a
/// SourceError in the user header that holds it. An unterminated
/// conditional whose skipped text holds an unterminated block comment is
/// reported at the comment, as nvcc's preprocessor does.
llvm::Error checkHostPassPreprocesses(const SourceFile &File,
                                      const ScanResult &Scan,
                                      const HostSliceOptions &Opts);

/// Whether \p Info is the preprocessor's error in a file of the user's
/// (not a system header, not one of Clang's own buffers).
bool isUserPreprocessorError(clang::DiagnosticsEngine::Level L,
                             const clang::Diagnostic &Info);

} // namespace metacu

#endif
