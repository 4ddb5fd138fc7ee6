//===- InvocationTest.cpp - The Clang command lines metacu runs -----------===//
#include "toolchain/Invocation.h"
#include "TempDir.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include <gtest/gtest.h>

using namespace metacu;
using Strings = std::vector<std::string>;

namespace {

/// A toolkit with nvcc 13's layout, without touching the disk.
CudaToolkit toolkit() {
  CudaToolkit TK;
  TK.Root = "/cuda";
  TK.IncludeDirs = {"/cuda/include", "/cuda/include/cccl"};
  TK.Defines = {"FROM_PROFILE"};
  TK.Major = TK.ApiMajor = 13;
  return TK;
}

Strings args(ClangMode Mode, const CompileFlags &Flags = {},
             unsigned Arch = 0) {
  return clangCommandLine(toolkit(), Flags, {Mode, "/rt", Arch}, "/src/k.cu");
}

/// The position of \p Arg in \p Args, or Args.size().
size_t at(const Strings &Args, llvm::StringRef Arg) {
  return llvm::find(Args, Arg) - Args.begin();
}

bool has(const Strings &Args, llvm::StringRef Arg) {
  return at(Args, Arg) != Args.size();
}

/// Whether \p Args holds \p Seq consecutively.
bool hasSequence(const Strings &Args, const Strings &Seq) {
  return std::search(Args.begin(), Args.end(), Seq.begin(), Seq.end()) !=
         Args.end();
}

TEST(InvocationTest, FilesWithReadTheTextGivenAtItsPathAndTheDiskElsewhere) {
  TempDir T;
  std::string K = T.write("k.cu", "on disk\n");
  std::string H = T.write("h.cuh", "a header\n");
  auto Files = filesWith("held in memory\n", K);
  auto Text = [&](llvm::StringRef Path) -> std::string {
    auto F = Files->getFileRef(Path);
    if (!F)
      return "<" + llvm::toString(F.takeError()) + ">";
    auto B = Files->getBufferForFile(*F);
    return B ? (*B)->getBuffer().str() : "<unreadable>";
  };
  EXPECT_EQ(Text(K), "held in memory\n");
  EXPECT_EQ(Text(H), "a header\n");
  // Nothing is written: the disk keeps its text.
  EXPECT_EQ(TempDir::read(K), "on disk\n");
}

TEST(InvocationTest, HostSliceReadsCxxAsACxxCompilerWould) {
  Strings A = args(ClangMode::HostSlice);
  EXPECT_EQ(A.front(), "clang++");
  EXPECT_EQ(A.back(), "/src/k.cu");
  EXPECT_TRUE(hasSequence(A, {"-x", "c++", "-fsyntax-only"}));
  EXPECT_TRUE(hasSequence(A, {"-include", "cuda_runtime.h"}));
  EXPECT_TRUE(hasSequence(A, {"-isystem", "/cuda/include"}));
  EXPECT_TRUE(hasSequence(A, {"-isystem", "/cuda/include/cccl"}));
  EXPECT_TRUE(has(A, "-DFROM_PROFILE"));
  EXPECT_TRUE(has(A, "-I/rt"));
  EXPECT_TRUE(has(A, "-resource-dir"));
  // C++ mode without __CUDACC__: cheaper than Clang's CUDA mode.
  EXPECT_FALSE(has(A, "-D__CUDACC__"));
  EXPECT_TRUE(has(A, "-std=c++17"));
}

TEST(InvocationTest, HostSliceCudaLeavesTheToolkitsIncludeToClang) {
  Strings A = args(ClangMode::HostSliceCuda);
  EXPECT_TRUE(hasSequence(A, {"-x", "cuda", "--cuda-host-only"}));
  EXPECT_TRUE(has(A, "--cuda-path=/cuda"));
  EXPECT_TRUE(has(A, "-E"));
  EXPECT_TRUE(hasSequence(A, {"-isystem", "/cuda/include/cccl"}));
  // Clang's CUDA mode includes cuda_runtime.h through its own wrapper.
  EXPECT_FALSE(has(A, "cuda_runtime.h"));
  EXPECT_TRUE(has(A, "-I/rt"));
}

TEST(InvocationTest, EveryModeReadsTheOrdinaryCodeInItsStandard) {
  CompileFlags Flags;
  Flags.Standard = "c++20";
  for (ClangMode M :
       {ClangMode::HostSlice, ClangMode::HostSliceCuda, ClangMode::NvccPass}) {
    EXPECT_TRUE(has(args(M, Flags), "-std=c++20"));
    EXPECT_FALSE(has(args(M, Flags), "-std=c++17"));
    EXPECT_TRUE(has(args(M), "-std=c++17"));
  }
}

TEST(InvocationTest, NvccPassesPreprocessAsNvccDoes) {
  Strings Host = args(ClangMode::NvccPass);
  EXPECT_TRUE(hasSequence(Host, {"-x", "c++", "-fsyntax-only"}));
  for (const char *D : {"-D__CUDACC__", "-D__NVCC__",
                        "-D__CUDACC_VER_MAJOR__=13", "-DFROM_PROFILE"})
    EXPECT_TRUE(has(Host, D)) << D;
  EXPECT_TRUE(hasSequence(Host, {"-include", "cuda_runtime.h"}));
  EXPECT_FALSE(llvm::any_of(Host, [](llvm::StringRef A) {
    return A.starts_with("-D__CUDA_ARCH__");
  }));
  EXPECT_FALSE(has(Host, "-DCUDA_DOUBLE_MATH_FUNCTIONS"));
  // As nvcc's host pass has it: '#ifdef __CUDA_ARCH_LIST__' is no test of
  // the pass.
  EXPECT_TRUE(llvm::any_of(Host, [](llvm::StringRef A) {
    return A.starts_with("-D__CUDA_ARCH_LIST__=750,800,");
  }));

  Strings Device = args(ClangMode::NvccPass, {}, 86);
  EXPECT_TRUE(has(Device, "-D__CUDA_ARCH__=860"));
  // The same list in every pass of one build.
  EXPECT_TRUE(llvm::any_of(Device, [](llvm::StringRef A) {
    return A.starts_with("-D__CUDA_ARCH_LIST__=750,800,");
  }));
  EXPECT_TRUE(has(Device, "-DCUDA_DOUBLE_MATH_FUNCTIONS"));
}

TEST(InvocationTest, UserFlagsComeAfterTheToolkitsSoTheyWin) {
  CompileFlags Flags;
  Flags.Args = {"-D__CUDACC_VER_MAJOR__=99", "-UFROM_PROFILE",
                "-include/u/pre.h", "-isystem/u/cccl", "-I/u/inc"};
  for (ClangMode M :
       {ClangMode::HostSlice, ClangMode::HostSliceCuda, ClangMode::NvccPass}) {
    Strings A = args(M, Flags);
    // Macros and forced includes act in order: the user's last.
    if (M == ClangMode::NvccPass)
      EXPECT_LT(at(A, "-D__CUDACC_VER_MAJOR__=13"),
                at(A, "-D__CUDACC_VER_MAJOR__=99"));
    EXPECT_LT(at(A, "-DFROM_PROFILE"), at(A, "-UFROM_PROFILE"));
    if (M != ClangMode::HostSliceCuda)
      EXPECT_LT(at(A, "cuda_runtime.h"), at(A, "-include/u/pre.h"));
    // System directories are searched in order: the user's first, as
    // nvcc orders them.
    EXPECT_LT(at(A, "-isystem/u/cccl"), at(A, "/cuda/include/cccl"));
    EXPECT_EQ(A.back(), "/src/k.cu");
  }
}

TEST(InvocationTest, GeneratorIsCxx20WhateverTheOrdinaryCodesStandard) {
  CompileFlags Flags;
  Flags.Standard = "c++17";
  Flags.Args = {"-DUSER"};
  GeneratorArgs G = generatorArgs(toolkit(), Flags, "/rt", "/src");
  EXPECT_TRUE(has(G.Shared, "-std=c++20"));
  EXPECT_FALSE(has(G.Shared, "-std=c++17") || has(G.User, "-std=c++17"));
  EXPECT_TRUE(hasSequence(G.Shared, {"-isystem", "/cuda/include/cccl"}));
  EXPECT_TRUE(hasSequence(G.Shared, {"-I", "/rt"}));
  EXPECT_TRUE(has(G.Shared, "-fcxx-exceptions"));
  // The precompiled library is shared across inputs and flags.
  EXPECT_FALSE(has(G.Shared, "-DUSER"));
  EXPECT_EQ(G.User, (Strings{"-iquote", "/src", "-DUSER"}));
}

TEST(InvocationTest, PrecompiledForTheIncrementalInterpreter) {
  Strings A = precompileCommandLine({"-std=c++20", "-I", "/rt"}, "/rt/g.h");
  EXPECT_EQ(A,
            (Strings{"clang++", "-x", "c++-header", "-std=c++20", "-I", "/rt",
                     "-Xclang", "-fincremental-extensions", "/rt/g.h"}));
}

/// Counts diagnostics of \p Worst level or worse; the first one's text for
/// the failure message.
struct ErrorCounter : clang::DiagnosticConsumer {
  explicit ErrorCounter(clang::DiagnosticsEngine::Level Worst) : Worst(Worst) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    if (L < Worst)
      return;
    if (!Errors++) {
      llvm::SmallString<128> Msg;
      Info.FormatDiagnostic(Msg);
      First = Msg.str().str();
    }
  }
  clang::DiagnosticsEngine::Level Worst;
  unsigned Errors = 0;
  std::string First;
};

/// Whether Clang reads \p Code with the command line of \p Mode for the
/// toolkit nvcc is in. The audit's passes pose as nvcc with Clang 22 for a
/// host compiler, which CUDA's headers refuse with an #error, and parse
/// device code in C++ mode: only what stops the preprocessor counts there.
void expectReads(ClangMode Mode, llvm::StringRef Code, unsigned Arch = 0) {
  TempDir Tmp;
  std::string Path = Tmp.write("k.cu", Code);
  Strings Args = clangCommandLine(CudaToolkit::find(METACU_CUDA_ROOT), {},
                                  {Mode, "", Arch}, Path);
  if (Mode == ClangMode::HostSliceCuda)
    Args.insert(Args.end() - 1, {"-o", "/dev/null"});
  ErrorCounter Errors(Mode == ClangMode::NvccPass
                          ? clang::DiagnosticsEngine::Fatal
                          : clang::DiagnosticsEngine::Error);
  clang::tooling::ToolInvocation Run(
      Args,
      Mode == ClangMode::HostSliceCuda
          ? std::unique_ptr<clang::FrontendAction>(
                std::make_unique<clang::PreprocessOnlyAction>())
          : std::make_unique<clang::SyntaxOnlyAction>(),
      new clang::FileManager({}));
  Run.setDiagnosticConsumer(&Errors);
  Run.run();
  EXPECT_EQ(Errors.Errors, 0u) << Errors.First;
}

/// CUDA 13 keeps libcu++ under include/cccl, on nvcc's path only through
/// nvcc.profile.
const char *UsesCccl = R"(#include <cuda/std/type_traits>
#include <cooperative_groups.h>
static_assert(cuda::std::is_same_v<int, int>);
)";

TEST(InvocationTest, TheHostSliceFindsCccl) {
  expectReads(ClangMode::HostSlice, UsesCccl);
}

TEST(InvocationTest, CudaModeFindsCccl) {
  expectReads(ClangMode::HostSliceCuda, UsesCccl);
}

TEST(InvocationTest, AnAuditsHostPassFindsCccl) {
  expectReads(ClangMode::NvccPass, UsesCccl);
}

TEST(InvocationTest, AnAuditsDevicePassFindsCccl) {
  expectReads(ClangMode::NvccPass, UsesCccl, 80);
}

} // namespace
