//===- CompileFlags.h - The user's preprocessor flags ---------------------===//
//
// metacu honours the -I/-D/-U/-include flags the user compiles with, given
// on its command line or read from compile_commands.json (-p BUILD_DIR).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_COMPILEFLAGS_H
#define METACU_TOOLCHAIN_COMPILEFLAGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace metacu {

struct CompileFlags {
  /// Clang-style arguments: "-I<dir>", "-isystem<dir>", "-D<def>", "-U<name>",
  /// "-include<file>", in command-line order.
  std::vector<std::string> Args;
  /// The C++ standard of the ordinary code ("c++17"), from -std; empty for
  /// nvcc's default. Kept apart from Args: meta code is always C++20.
  std::string Standard;

  /// Appends the preprocessor flags found in a compiler command line (nvcc,
  /// gcc or clang spelling) to Args; other flags are ignored.
  void addFromCommandLine(const std::vector<std::string> &CommandLine,
                          llvm::StringRef Directory);

  /// If CommandLine[I] is a preprocessor or -std flag, takes it (and its
  /// value, advancing I past it) and returns true. Relative paths are made
  /// absolute against \p Directory unless it is empty.
  bool consume(const std::vector<std::string> &CommandLine, size_t &I,
               llvm::StringRef Directory);

  /// Reads the flags compile_commands.json in \p BuildDir records for
  /// \p File (or, failing that, for the closest file it knows). A dialect
  /// file CMake's metacu_target_sources expands has no entry of its own:
  /// the metacu_sources.json it writes beside compile_commands.json names
  /// its generated file, whose entry (the target's flags) is read instead.
  llvm::Error addFromDatabase(llvm::StringRef BuildDir, llvm::StringRef File);
};

} // namespace metacu

#endif
