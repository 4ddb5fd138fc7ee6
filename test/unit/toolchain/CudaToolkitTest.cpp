//===- CudaToolkitTest.cpp - Finding the toolkit and reading nvcc.profile -===//
#include "toolchain/CudaToolkit.h"
#include "TempDir.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>
#include <gtest/gtest.h>
#include <optional>

using namespace metacu;
using Strings = std::vector<std::string>;

namespace {

/// bin/nvcc.profile as CUDA 13.0 ships it.
const char *Cuda13Profile = R"P(
TOP              = $(_HERE_)/..

CICC_PATH        = $(TOP)/nvvm/bin
NVVMIR_LIBRARY_DIR = $(TOP)/nvvm/libdevice

LD_LIBRARY_PATH += $(TOP)/lib:
PATH            += $(CICC_PATH):$(_HERE_):

INCLUDES        +=  "-I$(TOP)/$(_TARGET_DIR_)/include" $(_SPACE_)
SYSTEM_INCLUDES +=  "-isystem" "$(TOP)/$(_TARGET_DIR_)/include/cccl" $(_SPACE_)

LIBRARIES        =+ $(_SPACE_) "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)/stubs" "-L$(TOP)/$(_TARGET_DIR_)/lib$(_TARGET_SIZE_)"

CUDAFE_FLAGS    +=
PTXAS_FLAGS     +=
)P";

/// Sets an environment variable for one test, restoring it after.
class ScopedEnv {
public:
  ScopedEnv(const char *Name, std::optional<std::string> Value) : Name(Name) {
    if (const char *Old = std::getenv(Name))
      Saved = Old;
    if (Value)
      setenv(Name, Value->c_str(), 1);
    else
      unsetenv(Name);
  }
  ~ScopedEnv() {
    if (Saved)
      setenv(Name, Saved->c_str(), 1);
    else
      unsetenv(Name);
  }

private:
  const char *Name;
  std::optional<std::string> Saved;
};

class CudaToolkitTest : public ::testing::Test {
protected:
  std::string root() { return Tmp.path("cuda"); }
  TempDir Tmp;
};

TEST_F(CudaToolkitTest, ReadsIncludeDirectoriesFromTheProfile) {
  Tmp.write("cuda/bin/nvcc.profile", Cuda13Profile);
  CudaToolkit TK = CudaToolkit::load(root());
  // Without a targets/ folder for this host, $(_TARGET_DIR_) is empty.
  EXPECT_EQ(TK.IncludeDirs,
            (Strings{root() + "/include", root() + "/include/cccl"}));
  EXPECT_TRUE(TK.Defines.empty());
}

TEST_F(CudaToolkitTest, HeadersLiveUnderTheTargetFolderOfTheHost) {
  llvm::Triple Host(llvm::sys::getProcessTriple());
  if (Host.getArch() != llvm::Triple::x86_64)
    GTEST_SKIP() << "the folder is named after an x86-64 host";
  Tmp.write("cuda/bin/nvcc.profile", Cuda13Profile);
  Tmp.write("cuda/targets/x86_64-linux/include/cuda.h", "");
  CudaToolkit TK = CudaToolkit::load(root());
  std::string Target = root() + "/targets/x86_64-linux/include";
  EXPECT_EQ(TK.IncludeDirs, (Strings{Target, Target + "/cccl"}));
}

TEST_F(CudaToolkitTest, ProfileAssignmentsAppendPrependAndDefault) {
  ScopedEnv Env("METACU_TEST_PROFILE_DIR", std::string("/from/env"));
  Tmp.write("cuda/bin/nvcc.profile", R"P(# a comment = not an assignment
A = /a
A += /b
A =+ /c
B ?= /kept
B ?= /ignored
INCLUDES = "-I$(A)" -I $(B) -isystem$(METACU_TEST_PROFILE_DIR) -DFROM_PROFILE=1
SYSTEM_INCLUDES += '-isystem' "/x y"
)P");
  CudaToolkit TK = CudaToolkit::load(root());
  EXPECT_EQ(TK.IncludeDirs, (Strings{"/c/a/b", "/kept", "/from/env", "/x y"}));
  EXPECT_EQ(TK.Defines, (Strings{"FROM_PROFILE=1"}));
}

TEST_F(CudaToolkitTest, WithoutAProfileIncludeAndCccl) {
  Tmp.write("cuda/include/cccl/cuda/std/type_traits", "");
  CudaToolkit TK = CudaToolkit::load(root());
  EXPECT_EQ(TK.IncludeDirs,
            (Strings{root() + "/include", root() + "/include/cccl"}));
}

TEST_F(CudaToolkitTest, VersionsFromVersionJsonAndCudaH) {
  Tmp.write("cuda/include/cuda.h", "#define CUDA_VERSION 12040\n");
  CudaToolkit TK = CudaToolkit::load(root());
  EXPECT_EQ(TK.ApiMajor, 12u);
  EXPECT_EQ(TK.ApiMinor, 4u);
  // nvcc's own version defaults to the runtime's.
  EXPECT_EQ(TK.Major, 12u);
  EXPECT_EQ(TK.Minor, 4u);
  EXPECT_EQ(TK.Build, 0u);
  Tmp.write("cuda/version.json",
            R"({"cuda": {"version": "12.4.1"},
                "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}})");
  TK = CudaToolkit::load(root());
  EXPECT_EQ(TK.Minor, 4u);
  EXPECT_EQ(TK.Build, 131u);
  Strings M = TK.nvccMacros(/*DevicePass=*/false);
  for (const char *Want :
       {"__CUDACC__", "__NVCC__", "__CUDACC_VER_MAJOR__=12",
        "__CUDACC_VER_MINOR__=4", "__CUDACC_VER_BUILD__=131",
        "__CUDA_API_VER_MAJOR__=12", "__CUDA_API_VER_MINOR__=4"})
    EXPECT_TRUE(llvm::is_contained(M, Want)) << Want;
  EXPECT_FALSE(llvm::is_contained(M, "CUDA_DOUBLE_MATH_FUNCTIONS"));
  EXPECT_TRUE(llvm::is_contained(TK.nvccMacros(/*DevicePass=*/true),
                                 "CUDA_DOUBLE_MATH_FUNCTIONS"));
}

TEST_F(CudaToolkitTest, TheCudaPathOptionComesFirst) {
  ScopedEnv Root("CUDAToolkit_ROOT", std::string("/from/cmake"));
  EXPECT_EQ(findCudaRoot("/given"), "/given");
}

TEST_F(CudaToolkitTest, CMakesVariableBeforeCudaPath) {
  ScopedEnv Root("CUDAToolkit_ROOT", std::string("/from/cmake"));
  ScopedEnv Path("CUDA_PATH", std::string("/from/cuda_path"));
  EXPECT_EQ(findCudaRoot(), "/from/cmake");
  ScopedEnv NoRoot("CUDAToolkit_ROOT", std::nullopt);
  EXPECT_EQ(findCudaRoot(), "/from/cuda_path");
}

TEST_F(CudaToolkitTest, TheNvccOnPathWithItsLinksResolved) {
  ScopedEnv Root("CUDAToolkit_ROOT", std::nullopt);
  ScopedEnv CudaPath("CUDA_PATH", std::nullopt);
  std::string Nvcc = Tmp.write("cuda-13.0/bin/nvcc", "#!/bin/sh\n");
  llvm::sys::fs::setPermissions(Nvcc, llvm::sys::fs::all_exe |
                                          llvm::sys::fs::owner_read);
  ASSERT_FALSE(llvm::sys::fs::create_directories(Tmp.path("usr/bin")));
  ASSERT_FALSE(llvm::sys::fs::create_link(Nvcc, Tmp.path("usr/bin/nvcc")));
  ScopedEnv Path("PATH", Tmp.path("usr/bin"));
  llvm::SmallString<256> Real;
  ASSERT_FALSE(llvm::sys::fs::real_path(Tmp.path("cuda-13.0"), Real));
  EXPECT_EQ(findCudaRoot(), Real.str());
}

TEST_F(CudaToolkitTest, UsrLocalCudaLast) {
  ScopedEnv Root("CUDAToolkit_ROOT", std::nullopt);
  ScopedEnv CudaPath("CUDA_PATH", std::nullopt);
  ScopedEnv Path("PATH", Tmp.dir().str());
  EXPECT_EQ(findCudaRoot(), "/usr/local/cuda");
}

TEST_F(CudaToolkitTest, ReadOncePerRoot) {
  const CudaToolkit &A = CudaToolkit::find(METACU_CUDA_ROOT);
  EXPECT_EQ(&A, &CudaToolkit::find(METACU_CUDA_ROOT));
  EXPECT_EQ(A.Root, METACU_CUDA_ROOT);
}

/// The words of the line of `nvcc --dryrun` that preprocesses the host
/// pass: the host compiler's -E, with __CUDACC__ and no __CUDA_ARCH__.
Strings nvccHostPreprocessing(const TempDir &Tmp) {
  std::string In = Tmp.write("k.cu", "__global__ void k() {}\n");
  std::string Log = Tmp.path("dryrun.txt");
  std::string Nvcc = METACU_CUDA_ROOT "/bin/nvcc";
  std::string Out = Tmp.path("k.o");
  llvm::StringRef Argv[] = {Nvcc, "--dryrun", "-c", In, "-o", Out};
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Log, Log};
  if (llvm::sys::ExecuteAndWait(Nvcc, Argv, std::nullopt, Redirects))
    return {};
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  std::string Text = TempDir::read(Log);
  llvm::StringRef(Text).split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    if (!L.contains(" -E ") || !L.contains("-D__CUDACC__") ||
        L.contains("-D__CUDA_ARCH__="))
      continue;
    Strings Words;
    for (llvm::StringRef W : llvm::split(L, ' '))
      if (!W.trim().empty())
        Words.push_back(W.trim().trim('"').str());
    return Words;
  }
  return {};
}

TEST_F(CudaToolkitTest, SeesWhatNvccsHostPassSees) {
  Strings Nvcc = nvccHostPreprocessing(Tmp);
  ASSERT_FALSE(Nvcc.empty()) << "no host preprocessing in nvcc --dryrun";
  const CudaToolkit &TK = CudaToolkit::find(METACU_CUDA_ROOT);
  Strings Dirs;
  for (size_t I = 0; I < Nvcc.size(); ++I) {
    llvm::StringRef W = Nvcc[I];
    std::string Dir = W == "-isystem" && I + 1 < Nvcc.size() ? Nvcc[++I]
                      : W.starts_with("-I") ? W.drop_front(2).str()
                                            : "";
    if (Dir.empty())
      continue;
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    Dirs.push_back(P.str().str());
  }
  EXPECT_EQ(TK.IncludeDirs, Dirs);
  Strings Macros = TK.nvccMacros(/*DevicePass=*/false);
  for (llvm::StringRef W : Nvcc) {
    // The list of targets is the command line's, not the toolkit's; the
    // build number is known only where the toolkit records it.
    if (!W.consume_front("-D") || W.starts_with("__CUDA_ARCH_LIST__") ||
        (W.starts_with("__CUDACC_VER_BUILD__") && !TK.Build))
      continue;
    EXPECT_TRUE(llvm::is_contained(Macros, W)) << W.str();
  }
}

} // namespace
