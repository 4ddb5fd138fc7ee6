//===- PreludeCache.h - The generator library, precompiled ----------------===//
//
// Every generator program starts by compiling metacu/detail/generator.h and
// the standard headers it pulls in, which is most of a run's time. The same
// compiler and flags always give the same result, so it is compiled once
// into a precompiled header kept in a cache directory and reused.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_PRELUDECACHE_H
#define METACU_EXPAND_PRELUDECACHE_H

#include "toolchain/StoredPch.h"

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu {

/// The precompiled generator library for interpreter arguments \p Args
/// (those that shape the header: language, include paths of metacu and
/// CUDA), building it in \p CacheDir if it is not there yet. Returns nothing
/// if it cannot be built or stored; the caller then compiles the header
/// itself, which is slower but equivalent.
std::optional<std::string>
precompiledPrelude(llvm::StringRef CacheDir, llvm::StringRef Header,
                   const std::vector<std::string> &Args);

} // namespace metacu

#endif
