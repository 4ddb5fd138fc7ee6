//===- PreludeCacheTest.cpp - The precompiled generator library -----------===//
#include "expand/PreludeCache.h"
#include "TempDir.h"
#include "toolchain/Invocation.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"
#include <chrono>
#include <gtest/gtest.h>

using namespace metacu;

namespace {

class PreludeCacheTest : public ::testing::Test {
protected:
  std::optional<std::string> build() {
    return precompiledPrelude(Tmp.dir(), Header, Args);
  }
  TempDir Tmp;
  std::string Header =
      METACU_SOURCE_RUNTIME_INCLUDE "/metacu/detail/generator.h";
  std::vector<std::string> Args =
      generatorArgs(CudaToolkit::find(METACU_CUDA_ROOT), {},
                    METACU_SOURCE_RUNTIME_INCLUDE, "")
          .Shared;
};

TEST_F(PreludeCacheTest, BuildsOnceAndReusesTheFile) {
  auto First = build();
  ASSERT_TRUE(First);
  EXPECT_TRUE(llvm::sys::fs::exists(*First + ".sum"));
  llvm::sys::fs::UniqueID Before, After;
  ASSERT_FALSE(llvm::sys::fs::getUniqueID(*First, Before));
  auto Second = build();
  ASSERT_TRUE(Second);
  EXPECT_EQ(*First, *Second);
  ASSERT_FALSE(llvm::sys::fs::getUniqueID(*Second, After));
  EXPECT_EQ(Before, After) << "an intact file is not rebuilt";
}

TEST_F(PreludeCacheTest, ADamagedFileIsRebuiltNotUsed) {
  auto First = build();
  ASSERT_TRUE(First);
  std::string Good = TempDir::read(*First);
  // Damage in the middle, as a full disk or an interrupted copy leaves it.
  std::string Bad = Good;
  for (size_t I = Bad.size() / 3; I < Bad.size() / 2; I += 4096)
    Bad[I] = char(~Bad[I]);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(*First, EC);
    ASSERT_FALSE(EC);
    OS << Bad;
  }
  auto Second = build();
  ASSERT_TRUE(Second);
  EXPECT_EQ(TempDir::read(*Second), Good);
}

TEST_F(PreludeCacheTest, AMissingChecksumMeansRebuild) {
  auto First = build();
  ASSERT_TRUE(First);
  ASSERT_FALSE(llvm::sys::fs::remove(*First + ".sum"));
  auto Second = build();
  ASSERT_TRUE(Second);
  EXPECT_TRUE(llvm::sys::fs::exists(*Second + ".sum"));
}

TEST_F(PreludeCacheTest, NoCacheDirectoryMeansNoFile) {
  EXPECT_FALSE(precompiledPrelude("", Header, Args));
}

} // namespace

namespace {

TEST_F(PreludeCacheTest, AChangedInputFileMeansRebuild) {
  // Clang would reject the stale file on loading, in a way the interpreter
  // does not survive; metacu must not hand it over.
  std::string Extra = Tmp.write("extra.h", "#define METACU_EXTRA 1\n");
  Args.insert(Args.end(), {"-include", Extra});
  auto First = build();
  ASSERT_TRUE(First);
  llvm::sys::fs::UniqueID Before, After;
  ASSERT_FALSE(llvm::sys::fs::getUniqueID(*First, Before));
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
      Extra, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, std::chrono::system_clock::now() + std::chrono::hours(1)));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  auto Second = build();
  ASSERT_TRUE(Second);
  ASSERT_FALSE(llvm::sys::fs::getUniqueID(*Second, After));
  EXPECT_NE(Before, After) << "a file built from a changed header is rebuilt";
}

} // namespace
