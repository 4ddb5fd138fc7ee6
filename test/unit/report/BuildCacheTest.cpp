//===- BuildCacheTest.cpp - Earlier builds kept by their inputs -----------===//
#include "report/BuildCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::report;

namespace {

Arch arch(llvm::StringRef Name) {
  auto A = ArchList::parse(Name);
  EXPECT_TRUE(bool(A)) << llvm::toString(A.takeError());
  return A->archs().front();
}

NvccOptions options() {
  NvccOptions O;
  O.Nvcc = "/no/such/nvcc";
  O.Args = {"-I/a", "-DX=1"};
  return O;
}

TEST(BuildCacheTest, TheKeyChangesWithEveryInput) {
  std::vector<Arch> Sm90{arch("90")};
  std::string Base = buildKey("kernel text", Sm90, options());
  EXPECT_EQ(Base.size(), 64u);
  EXPECT_EQ(Base, buildKey("kernel text", Sm90, options()));
  EXPECT_NE(Base, buildKey("kernel text ", Sm90, options()));
  EXPECT_NE(Base, buildKey("kernel text", {arch("80")}, options()));
  NvccOptions O = options();
  O.PtxArch = "compute_80";
  EXPECT_NE(Base, buildKey("kernel text", Sm90, O));
  O = options();
  O.Args.push_back("-std=c++20");
  EXPECT_NE(Base, buildKey("kernel text", Sm90, O));
  O = options();
  O.Nvcc = "/other/nvcc";
  EXPECT_NE(Base, buildKey("kernel text", Sm90, O));
  // Fields are delimited: moving text from one argument to the next is
  // another build.
  O = options();
  O.Args = {"-I/a-D", "X=1"};
  EXPECT_NE(Base, buildKey("kernel text", Sm90, O));
  // Where the PTX and logs are written does not decide them.
  O = options();
  O.WorkDir = "/tmp/elsewhere";
  EXPECT_EQ(Base, buildKey("kernel text", Sm90, O));
}

class BuildCacheDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("metacu-cache", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  llvm::SmallString<128> Dir;
};

TEST_F(BuildCacheDirTest, StoredBuildsAreFoundAgainWhole) {
  std::vector<Arch> Archs{arch("80"), arch("90")};
  std::string Key = buildKey("text", Archs, options());
  EXPECT_FALSE(lookupBuilds(Dir, Key, Archs));
  std::vector<ArchBuild> Builds{{Archs[0], ".version 9.0\n// 80", "log 80"},
                                {Archs[1], ".version 9.0\n// 90", "log 90"}};
  ASSERT_FALSE(bool(storeBuilds(Dir, Key, Builds)));
  auto Found = lookupBuilds(Dir, Key, Archs);
  ASSERT_TRUE(Found);
  ASSERT_EQ(Found->size(), 2u);
  EXPECT_EQ((*Found)[1].Target.name(), "sm_90");
  EXPECT_EQ((*Found)[1].Ptx, Builds[1].Ptx);
  EXPECT_EQ((*Found)[0].PtxasLog, "log 80");
  // An architecture the entry does not hold is not found.
  EXPECT_FALSE(lookupBuilds(Dir, Key, {arch("75")}));
  EXPECT_FALSE(lookupBuilds(Dir, buildKey("other", Archs, options()), Archs));
}

TEST_F(BuildCacheDirTest, AnEntryStoredFirstIsKeptAndNothingIsLeftAside) {
  std::vector<Arch> Archs{arch("90")};
  std::string Key = buildKey("text", Archs, options());
  ASSERT_FALSE(bool(storeBuilds(Dir, Key, {{Archs[0], "first", "log"}})));
  ASSERT_FALSE(bool(storeBuilds(Dir, Key, {{Archs[0], "second", "log"}})));
  auto Found = lookupBuilds(Dir, Key, Archs);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->front().Ptx, "first");
  unsigned Entries = 0;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    ++Entries;
  EXPECT_EQ(Entries, 1u);
}

TEST(BuildCacheTest, ARelativeFolderIsInTheWorkingFolder) {
  // A folder of the working folder, named as a relative path.
  llvm::SmallString<256> Model, Abs;
  ASSERT_FALSE(llvm::sys::fs::current_path(Model));
  llvm::sys::path::append(Model, "metacu-cache-relative");
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory(Model, Abs));
  std::string Rel = llvm::sys::path::filename(Abs).str();
  std::vector<Arch> Archs{arch("90")};
  std::string Key = buildKey("text", Archs, options());
  llvm::Error Stored = storeBuilds(Rel, Key, {{Archs[0], "ptx", "log"}});
  auto Found = lookupBuilds(Abs, Key, Archs);
  llvm::sys::fs::remove_directories(Abs);
  ASSERT_FALSE(bool(Stored)) << llvm::toString(std::move(Stored));
  ASSERT_TRUE(Found);
  EXPECT_EQ(Found->front().Ptx, "ptx");
}

} // namespace
