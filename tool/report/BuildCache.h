//===- BuildCache.h - Earlier builds' PTX and ptxas logs, by their inputs -===//
//
// cicc and ptxas cost nearly all of a prediction (about 0.9 s of CPU per
// convolution candidate, docs/tune.md) and their output does not depend on
// the model. A build cache keeps each translation unit's PTX and ptxas log
// under a key made of everything that decides them: the generated file's
// text, the nvcc program (path, size and modification time, so a changed
// toolkit misses), its arguments, the PTX architecture and the targets.
// Predicting a space again (after a model change, a stopped run, a second
// strategy run) then costs the expansion alone, with the same results.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_BUILDCACHE_H
#define METACU_REPORT_BUILDCACHE_H

#include "report/Ptxas.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu::report {

/// The key of compiling \p GenText (the generated file's contents) as
/// \p Opts says for \p Archs: 64 hex digits.
std::string buildKey(llvm::StringRef GenText, llvm::ArrayRef<Arch> Archs,
                     const NvccOptions &Opts);

/// The builds stored under \p Key in \p Dir, one per arch of \p Archs; none
/// if any is missing or unreadable.
std::optional<std::vector<ArchBuild>> lookupBuilds(llvm::StringRef Dir,
                                                   llvm::StringRef Key,
                                                   llvm::ArrayRef<Arch> Archs);

/// Stores \p Builds under \p Key in \p Dir (created if needed). An entry
/// appears whole or not at all: it is written aside and renamed into
/// place, so concurrent runs and interrupted ones never leave half of one;
/// an entry another run stored first is kept.
llvm::Error storeBuilds(llvm::StringRef Dir, llvm::StringRef Key,
                        llvm::ArrayRef<ArchBuild> Builds);

} // namespace metacu::report

#endif
