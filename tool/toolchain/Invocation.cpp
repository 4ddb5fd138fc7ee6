//===- Invocation.cpp -----------------------------------------------------===//
#include "toolchain/Invocation.h"
#include "toolchain/Arch.h"

#include "clang/Basic/Version.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/Path.h"

namespace metacu {

/// A relocated metacu (scripts/pack) carries the builtin headers beside
/// itself, in <prefix>/lib/clang/<major>, for machines without this Clang;
/// otherwise they are where the linked Clang was installed.
std::string clangResourceDir() {
  static const std::string Dir = [] {
    std::string Exe = llvm::sys::fs::getMainExecutable(
        nullptr, reinterpret_cast<void *>(&clangResourceDir));
    llvm::SmallString<256> Beside(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
    llvm::sys::path::append(Beside, "lib", "clang", CLANG_VERSION_MAJOR_STRING);
    llvm::SmallString<256> Probe(Beside);
    llvm::sys::path::append(Probe, "include", "stddef.h");
    if (!Exe.empty() && llvm::sys::fs::exists(Probe))
      return std::string(Beside);
    return std::string(CLANG_RESOURCE_DIR);
  }();
  return Dir;
}

/// The standard nvcc compiles the ordinary code in: the user's, else nvcc
/// 13's default. (C++20's standard headers also cost a third more to
/// parse.)
static std::string ordinaryStandard(const CompileFlags &Flags) {
  return "-std=" +
         (Flags.Standard.empty() ? std::string("c++17") : Flags.Standard);
}

static void addDefines(std::vector<std::string> &Args,
                       llvm::ArrayRef<std::string> Macros) {
  for (const std::string &M : Macros)
    Args.push_back("-D" + M);
}

/// The toolkit's include directories, less those \p Skip names.
static void addToolkitIncludes(
    std::vector<std::string> &Args, const CudaToolkit &Toolkit,
    llvm::function_ref<bool(llvm::StringRef)> Skip = [](llvm::StringRef) {
      return false;
    }) {
  for (const std::string &Dir : Toolkit.IncludeDirs)
    if (!Skip(Dir))
      Args.insert(Args.end(), {"-isystem", Dir});
}

/// The language and what Clang should do with the file in \p Mode.
static std::vector<std::string> modeFlags(const InvocationOptions &Opts,
                                          const CudaToolkit &Toolkit) {
  ClangMode Mode = Opts.Mode;
  if (Mode == ClangMode::Verify) {
    std::vector<std::string> Args = {"-x",
                                     "cuda",
                                     "-fsyntax-only",
                                     "-nocudalib",
                                     "--cuda-path=" + Toolkit.Root,
                                     "-Wno-unknown-cuda-version"};
    if (Opts.GpuArch.empty()) {
      Args.push_back("--cuda-host-only");
    } else {
      Args.push_back("--cuda-device-only");
      Args.push_back("--cuda-gpu-arch=" + Opts.GpuArch);
      // Clang's driver tells a device-only syntax check no SDK version, and
      // Sema then takes a kernel launch in host code for the pre-9.2 API
      // (cudaConfigureCall, gone from CUDA 12).
      if (Toolkit.Major)
        Args.insert(
            Args.end(),
            {"-Xclang", "-target-sdk-version=" + std::to_string(Toolkit.Major) +
                            "." + std::to_string(Toolkit.Minor)});
    }
    return Args;
  }
  if (Mode == ClangMode::HostSliceCuda)
    return {"-x",
            "cuda",
            "--cuda-host-only",
            "-nocudalib",
            "--cuda-path=" + Toolkit.Root,
            "-E",
            "-Wno-unknown-cuda-version"};
  return {"-x", "c++", "-fsyntax-only", "-ferror-limit=0"};
}

/// What nvcc adds to the host compiler's command line. Clang's CUDA mode
/// has __CUDACC__ and cuda_runtime.h of its own; the host slice's parse
/// reads the file as a C++ compiler would.
static void addNvccAdditions(std::vector<std::string> &Args,
                             const CudaToolkit &Toolkit,
                             const InvocationOptions &Opts) {
  if (Opts.Mode == ClangMode::NvccPass) {
    addDefines(Args, Toolkit.nvccMacros(/*DevicePass=*/Opts.Arch != 0));
    if (Opts.Arch)
      Args.push_back("-D__CUDA_ARCH__=" + std::to_string(Opts.Arch * 10));
    // nvcc defines the list in its host pass too, and the same in every
    // pass of a build: neither '#ifdef __CUDA_ARCH_LIST__' nor its value
    // tells one pass from another. The passes of a build for every
    // architecture they stand for.
    std::string List;
    for (unsigned CC : NvccArchitectures)
      List += (List.empty() ? "" : ",") + std::to_string(CC * 10);
    Args.push_back("-D__CUDA_ARCH_LIST__=" + List);
  } else if (Opts.Mode == ClangMode::HostSliceCuda) {
    // nvcc's host pass: its version macros (__CUDACC_VER_MAJOR__), which
    // Clang's CUDA mode lacks, decide blocks such as '#if
    // __CUDACC_VER_MAJOR__ >= 11' around meta constructs.
    addDefines(Args, Toolkit.nvccMacros(/*DevicePass=*/false));
  } else if (Opts.Mode != ClangMode::Verify) {
    addDefines(Args, Toolkit.Defines);
  }
  // Clang's CUDA mode brings __CUDACC__ and cuda_runtime.h itself.
  if (Opts.Mode != ClangMode::HostSliceCuda && Opts.Mode != ClangMode::Verify)
    Args.insert(Args.end(), {"-include", "cuda_runtime.h"});
}

std::vector<std::string> clangCommandLine(const CudaToolkit &Toolkit,
                                          const CompileFlags &Flags,
                                          const InvocationOptions &Opts,
                                          llvm::StringRef File) {
  std::vector<std::string> Args = {"clang++"};
  llvm::append_range(Args, modeFlags(Opts, Toolkit));
  Args.insert(Args.end(), {ordinaryStandard(Flags), "-w", "-resource-dir",
                           clangResourceDir()});
  addNvccAdditions(Args, Toolkit, Opts);
  llvm::append_range(Args, Flags.Args);
  if (Opts.Mode == ClangMode::HostSliceCuda || Opts.Mode == ClangMode::Verify) {
    // --cuda-path adds the toolkit's include/ itself, after Clang's CUDA
    // wrapper headers, which must come first.
    llvm::SmallString<256> Own(Toolkit.Root);
    llvm::sys::path::append(Own, "include");
    addToolkitIncludes(Args, Toolkit, [&](llvm::StringRef Dir) {
      return llvm::sys::fs::equivalent(Dir, Own);
    });
  } else {
    addToolkitIncludes(Args, Toolkit);
  }
  if (!Opts.RuntimeInclude.empty())
    Args.push_back("-I" + Opts.RuntimeInclude);
  Args.push_back(File.str());
  return Args;
}

llvm::IntrusiveRefCntPtr<clang::FileManager> filesWith(llvm::StringRef Text,
                                                       llvm::StringRef Path) {
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::getRealFileSystem());
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Overlay->pushOverlay(Memory);
  Memory->addFile(Path, 0, llvm::MemoryBuffer::getMemBufferCopy(Text, Path));
  return llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), Overlay);
}

GeneratorArgs generatorArgs(const CudaToolkit &Toolkit,
                            const CompileFlags &Flags,
                            llvm::StringRef RuntimeInclude,
                            llvm::StringRef InputDir) {
  GeneratorArgs G;
  G.Shared = {"-std=c++20",
              "-O0",
              "-Wno-everything",
              // Undefined behaviour Clang sees in meta code is an error at
              // its place: the JIT would otherwise fold '1 / 0' or an
              // index past a constant-size array into some value, which a
              // splice would then write into the kernel.
              "-Werror=division-by-zero",
              "-Werror=array-bounds",
              "-fexceptions",
              "-fcxx-exceptions",
              "-resource-dir",
              clangResourceDir()};
  // The generator library includes the toolkit's crt/host_defines.h, so
  // the toolkit shapes its precompiled form and comes before the user's.
  addToolkitIncludes(G.Shared, Toolkit);
  G.Shared.insert(G.Shared.end(), {"-I", RuntimeInclude.str()});
  G.User = {"-iquote", InputDir.str()};
  llvm::append_range(G.User, Flags.Args);
  return G;
}

std::vector<std::string>
precompileCommandLine(llvm::ArrayRef<std::string> Shared,
                      llvm::StringRef Header) {
  std::vector<std::string> Args = {"clang++", "-x", "c++-header"};
  llvm::append_range(Args, Shared);
  // The interpreter parses incrementally; a header precompiled otherwise is
  // rejected when loaded.
  Args.insert(Args.end(),
              {"-Xclang", "-fincremental-extensions", Header.str()});
  return Args;
}

} // namespace metacu
