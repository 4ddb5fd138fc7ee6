//===- SystemHeaderDirectivesTest.cpp - System headers as directives ------===//
#include "migrate/SystemHeaderDirectives.h"
#include "TempDir.h"

#include "clang/Basic/FileManager.h"
#include "gtest/gtest.h"

using namespace metacu;

namespace {

class SystemHeaderDirectivesTest : public ::testing::Test {
protected:
  /// The scan of \p Path, read afresh.
  const SystemHeaderScans::Scan *scan(const std::string &Path) {
    clang::FileManager Files{clang::FileSystemOptions()};
    auto File = Files.getFileRef(Path);
    EXPECT_TRUE(bool(File)) << Path;
    if (!File)
      return nullptr;
    return Scans.scan(*File, TempDir::read(Path));
  }

  TempDir Tmp;
  SystemHeaderScans Scans;
};

TEST_F(SystemHeaderDirectivesTest, AHeaderIsScannedOnceForTheRun) {
  std::string H = Tmp.write("sys/lib.h", R"(#pragma once
#if defined(FAST)
#define LIB_WIDTH 8
#endif
#pragma GCC diagnostic push
LIB_BEGIN int lib_code(int x) { return x; }
)");
  const SystemHeaderScans::Scan *S = scan(H);
  ASSERT_TRUE(S);
  EXPECT_FALSE(S->Directives.empty());
  EXPECT_EQ(scan(H), S);
  // What the replay would lose: the code's names, and a dropped pragma's.
  for (llvm::StringRef N : {"LIB_BEGIN", "lib_code", "x", "diagnostic"})
    EXPECT_TRUE(S->CodeNames.contains(N)) << N.str();
  for (llvm::StringRef N : {"FAST", "LIB_WIDTH", "defined", "define"})
    EXPECT_FALSE(S->CodeNames.contains(N)) << N.str();
}

TEST_F(SystemHeaderDirectivesTest, AHeaderToLexInFullIsNotReplayed) {
  std::string H = Tmp.write("sys/lib.h", "#define A 1\nint a;\n");
  const SystemHeaderScans::Scan *S = scan(H);
  ASSERT_TRUE(S);
  Scans.lexInFull(*S);
  EXPECT_FALSE(scan(H));
}

TEST_F(SystemHeaderDirectivesTest, AnEditedHeaderIsScannedAgain) {
  std::string H = Tmp.write("sys/lib.h", "#define A 1\n");
  const SystemHeaderScans::Scan *S = scan(H);
  ASSERT_TRUE(S);
  Tmp.write("sys/lib.h", "#define A 1\nint edited;\n");
  const SystemHeaderScans::Scan *Again = scan(H);
  ASSERT_TRUE(Again);
  EXPECT_NE(Again, S);
  EXPECT_TRUE(Again->CodeNames.contains("edited"));
}

} // namespace
