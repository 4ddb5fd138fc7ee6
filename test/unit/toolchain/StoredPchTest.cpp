//===- StoredPchTest.cpp - Precompiled headers kept across runs -----------===//
#include "toolchain/StoredPch.h"
#include "TempDir.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

class StoredPchTest : public ::testing::Test {
protected:
  /// The stored file "kind-x.pch", built by writing "bytes" unless there.
  std::optional<StoredPch> get() {
    return storedPch(Tmp.path("cache"), "kind-x.pch", /*Keep=*/8,
                     [&](llvm::StringRef Temp) -> std::optional<PchBuild> {
                       ++Builds;
                       std::error_code EC;
                       llvm::raw_fd_ostream OS(Temp, EC);
                       OS << "bytes";
                       return PchBuild{Inputs, Notes};
                     });
  }
  TempDir Tmp;
  std::vector<std::string> Inputs = {Tmp.write("input.h", "int x;\n")};
  std::string Notes = "D A __CUDA_ARCH__\nN B\n";
  unsigned Builds = 0;
};

TEST_F(StoredPchTest, TheNotesComeBackWithTheFile) {
  auto First = get();
  ASSERT_TRUE(First);
  EXPECT_EQ(First->Notes, Notes);
  auto Second = get();
  ASSERT_TRUE(Second);
  EXPECT_EQ(Second->Notes, Notes);
  EXPECT_EQ(Second->Path, First->Path);
  EXPECT_EQ(Builds, 1u);
}

TEST_F(StoredPchTest, DamagedNotesMeanABuild) {
  auto First = get();
  ASSERT_TRUE(First);
  std::string Record = TempDir::read(First->Path + ".sum");
  Record.back() = 'X';
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(First->Path + ".sum", EC);
    OS << Record;
  }
  auto Second = get();
  ASSERT_TRUE(Second);
  EXPECT_EQ(Second->Notes, Notes);
  EXPECT_EQ(Builds, 2u);
}

TEST_F(StoredPchTest, AFileThatAppearsWhereNoneWasMeansABuild) {
  std::string Shadow = Tmp.path("later/input.h");
  Inputs.push_back(Shadow);
  ASSERT_TRUE(get());
  ASSERT_TRUE(get());
  EXPECT_EQ(Builds, 1u);
  Tmp.write("later/input.h", "");
  ASSERT_TRUE(get());
  EXPECT_EQ(Builds, 2u);
}

TEST_F(StoredPchTest, ACacheThatCannotBeWrittenBuildsNothing) {
  std::string File = Tmp.write("file", "");
  EXPECT_FALSE(storedPch(File + "/cache", "kind-x.pch", 8,
                         [&](llvm::StringRef) -> std::optional<PchBuild> {
                           ++Builds;
                           return std::nullopt;
                         }));
  EXPECT_EQ(Builds, 0u);
}

} // namespace
