//===- PreprocessorPass.h - One compilation pass of the audit -------------===//
//
// Runs Clang's preprocessor over a file as nvcc's preprocessor runs it for
// one pass (Invocation.h, ClangMode::NvccPass) and records in Facts, for
// the file and the local headers it includes, which branch of each
// conditional the pass compiles and every use of __CUDA_ARCH__: directly,
// through macros that alias it and through feature macros defined under
// it. A parsed pass also places each conditional in the code (Placement.h).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_PREPROCESSORPASS_H
#define METACU_MIGRATE_PREPROCESSORPASS_H

#include "migrate/ArchFlow.h"
#include "migrate/Facts.h"
#include "migrate/PassSources.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/Error.h"

namespace metacu {

/// Runs pass \p Pass (an index of auditPasses()) over \p Path, adding to
/// \p F; \p Parse also parses it to place the conditionals it compiles.
/// \p Sources: the source manager the passes over \p Path share, and the
/// files they read (PassSources.h). \p CacheDir: where a parse keeps the
/// toolkit's prelude precompiled (PreludePch.h); empty for nowhere.
/// \p Record: for a device pass that only preprocesses, where it notes
/// what __CUDA_ARCH__'s value did (ArchFlow.h).
/// Fails with the first fatal error, at its place in the user's file (a
/// missing header), since the facts of a file that does not preprocess
/// would be wrong, not just incomplete.
llvm::Error runPass(llvm::StringRef Path, const CudaToolkit &Toolkit,
                    const CompileFlags &Flags, unsigned Pass, bool Parse,
                    Facts &F, PassSources &Sources,
                    llvm::StringRef CacheDir = {},
                    ArchRecord *Record = nullptr);

} // namespace metacu

#endif
