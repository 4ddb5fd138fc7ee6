//===- StoredPch.h - Precompiled headers kept across runs -----------------===//
//
// Some headers are read by every run the same way: the generator library
// (expand/PreludeCache.h), the toolkit's prelude of the audit's parses
// (migrate/PreludePch.h). Each is precompiled once into the cache directory
// and reused by later runs. Clang trusts a precompiled header it loads: a
// damaged one (a full disk, a crash while copying a home directory) or one
// whose headers changed since (a toolkit or compiler upgrade) would be read
// as it is. So each file has a record beside it (NAME.pch.sum): a checksum
// of its bytes and of its notes, then the stamp of each file it was built
// from (size and modification time, or that it is absent), then what its
// user wants kept with it (notes). A file whose record does not match is
// built again; one that cannot be written is no file: the caller then reads
// the headers as text, which is slower but equivalent.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_STOREDPCH_H
#define METACU_TOOLCHAIN_STOREDPCH_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace clang {
class SourceManager;
}

namespace metacu {

/// The cache directory: $METACU_CACHE_DIR, else $XDG_CACHE_HOME/metacu, else
/// $HOME/.cache/metacu. Empty when none can be determined.
std::string defaultCacheDirectory();

/// What a build gives besides the file.
struct PchBuild {
  /// The paths it was built from, and those whose appearance would change
  /// it (an include directory searched before the one a header came from).
  std::vector<std::string> Inputs;
  /// Kept with the file, handed to each user.
  std::string Notes;
};

/// A stored precompiled header.
struct StoredPch {
  std::string Path;
  std::string Notes;
};

/// The precompiled header \p Name ("KIND-HASH.pch": the \p Keep most
/// recently used of a kind are kept) in \p CacheDir, built with \p Build
/// (given the temporary path to write; nothing if the build failed or must
/// not be used) if it is not there intact. Nothing if \p CacheDir is empty
/// or cannot be written.
std::optional<StoredPch> storedPch(
    llvm::StringRef CacheDir, llvm::StringRef Name, unsigned Keep,
    llvm::function_ref<std::optional<PchBuild>(llvm::StringRef Temp)> Build);

/// Every file \p SM read.
std::vector<std::string> filesRead(const clang::SourceManager &SM);

} // namespace metacu

#endif
