//===- KeptExpansion.h - A live run's expansion, kept between runs --------===//
//
// A live run (`metacu tune FILE --arch N`) starts with one expansion of the
// kernel's file (the describe and, for a space it expands whole, every
// candidate): 1.5 to 2.3 s on the GPU machine, which with the harness and
// the candidates' cubins kept is most of what a later run of the same file
// waits for before its first result. That expansion is kept in
// $METACU_TUNE_CACHE (expansions/), named by everything that decides it
// besides the files it reads (metacu's executable, the file's path, the
// architectures, the flags, the request), with every file it read and a
// hash of each: a later run whose files all hash the same takes it instead
// of expanding. Meta code that reads what the expansion does not record
// (the environment, the clock) is not run again (docs/tune.md).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_KERNEL_KEPTEXPANSION_H
#define METACU_TUNE_KERNEL_KEPTEXPANSION_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu::tune {

/// What a describe expansion made: the expanded text, the files it read,
/// and the space's description (the request's `out` file).
struct KeptExpansion {
  std::string Text;
  std::vector<std::string> Dependencies;
  std::string Described;
};

/// The folder expansions are kept in ($METACU_TUNE_CACHE/expansions, or
/// under $XDG_CACHE_HOME or ~/.cache/metacu/tune, as run.py's cache).
std::string keptExpansionDir();

/// The expansion kept in \p Dir under \p Key (a hash of what decides it
/// besides its files), if every file it read still hashes the same, and
/// each of \p Watched (absolute paths of files meta code reads where they
/// exist, such as the tuning file the run writes) is as it was then: read
/// and the same, or absent still, or there still and not read.
std::optional<KeptExpansion>
findKeptExpansion(llvm::StringRef Dir, llvm::StringRef Key,
                  llvm::ArrayRef<std::string> Watched);

/// Keeps \p X in \p Dir under \p Key, with the state of each of \p
/// Watched, whole or not at all (a cache: a failure to write is not the
/// run's).
void keepExpansion(llvm::StringRef Dir, llvm::StringRef Key,
                   const KeptExpansion &X, llvm::ArrayRef<std::string> Watched);

} // namespace metacu::tune

#endif
