//===- Invocation.h - The Clang command lines metacu runs -----------------===//
//
// Every stage that runs Clang gets its command line here, so that each one
// sees the CUDA toolkit as nvcc does and the user's flags alike. A command
// line is, in this order:
//   clang++, the mode's language flags (-x, -std, what Clang should do);
//   what nvcc itself adds: its macros, -include cuda_runtime.h;
//   the user's flags as given, so their -D/-U/-include act after nvcc's;
//   the toolkit's include directories as system directories, after the
//   user's, so that a user's directory wins as it does with nvcc (its -I
//   directories are searched before every -isystem one anyway);
//   metacu's runtime headers, and the file.
// The toolkit's headers are system headers to every stage: the audit
// reports uses of __CUDA_ARCH__ in user files only.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_INVOCATION_H
#define METACU_TOOLCHAIN_INVOCATION_H

#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "clang/Basic/FileManager.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/IntrusiveRefCntPtr.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace metacu {

enum class ClangMode {
  /// The host slice's parse: nvcc's host pass as a C++ compiler reads it
  /// (without __CUDACC__, which is cheaper than Clang's CUDA mode), in the
  /// standard of the ordinary code.
  HostSlice,
  /// The host slice's second look at regions that depend on __CUDACC__:
  /// Clang's CUDA mode, host side, preprocessing only.
  HostSliceCuda,
  /// One of nvcc's passes: the file as nvcc's preprocessor gives it to the
  /// host compiler, for the host pass or one device pass, in C++ mode. The
  /// audit parses each pass; the splice of dialect headers follows the host
  /// pass; the nvcc-pass check preprocesses each.
  NvccPass,
  /// --verify: the generated file in Clang's CUDA mode, syntax only, for
  /// the host (GpuArch empty) or the device pass of GpuArch.
  Verify,
};

struct InvocationOptions {
  ClangMode Mode = ClangMode::HostSlice;
  /// metacu's runtime headers (the host slice's modes).
  std::string RuntimeInclude;
  /// NvccPass: the pass, as __CUDA_ARCH__ / 10; 0 is the host pass.
  unsigned Arch = 0;
  /// Verify: the device pass ("sm_90a"), or empty for the host pass.
  std::string GpuArch;
};

/// The command line ("clang++" first, \p File last) that reads \p File in
/// \p Opts.Mode.
std::vector<std::string> clangCommandLine(const CudaToolkit &Toolkit,
                                          const CompileFlags &Flags,
                                          const InvocationOptions &Opts,
                                          llvm::StringRef File);

/// The files a Clang run reads: \p Text at \p Path, the real file system
/// elsewhere. Stages run Clang on the text metacu holds, which may differ
/// from the file on disk or not be on disk at all, at the file's own path,
/// so that its relative #includes resolve beside it.
llvm::IntrusiveRefCntPtr<clang::FileManager> filesWith(llvm::StringRef Text,
                                                       llvm::StringRef Path);

/// The arguments of the generator's interpreter. Meta code is C++20
/// whatever the ordinary code's standard.
struct GeneratorArgs {
  /// What the precompiled generator library depends on: the language, the
  /// toolkit, metacu's runtime headers.
  std::vector<std::string> Shared;
  /// What varies with the input: its directory, for "local.h", and the
  /// user's flags.
  std::vector<std::string> User;
};
GeneratorArgs generatorArgs(const CudaToolkit &Toolkit,
                            const CompileFlags &Flags,
                            llvm::StringRef RuntimeInclude,
                            llvm::StringRef InputDir);

/// The command line that precompiles \p Header for an interpreter started
/// with \p Shared.
std::vector<std::string>
precompileCommandLine(llvm::ArrayRef<std::string> Shared,
                      llvm::StringRef Header);

/// The resource directory (builtin headers) of the Clang metacu links.
std::string clangResourceDir();

} // namespace metacu

#endif
