//===- OutputTest.cpp -----------------------------------------------------===//
#include "support/Output.h"
#include "TempDir.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

class OutputTest : public ::testing::Test {
protected:
  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator I(Tmp.dir(), EC), E; I != E && !EC;
         I.increment(EC))
      Names.push_back(llvm::sys::path::filename(I->path()).str());
    llvm::sort(Names);
    return Names;
  }
  TempDir Tmp;
};

TEST_F(OutputTest, WritesANewFile) {
  std::string P = Tmp.path("k.gen.cu");
  llvm::Error E = writeOutput(P, "int x;\n");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(TempDir::read(P), "int x;\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"k.gen.cu"}));
}

TEST_F(OutputTest, ReplacesAnExistingFile) {
  std::string P = Tmp.path("k.gen.cu");
  ASSERT_FALSE(bool(writeOutput(P, "a much longer old content\n")));
  llvm::Error E = writeOutput(P, "new\n");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(TempDir::read(P), "new\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"k.gen.cu"}));
}

TEST_F(OutputTest, AReplacedFileKeepsItsPermissions) {
  namespace fs = llvm::sys::fs;
  std::string P = Tmp.path("run.cu");
  ASSERT_FALSE(bool(writeOutput(P, "old\n")));
  fs::perms Mode = fs::owner_all | fs::group_read | fs::group_exe;
  ASSERT_FALSE(fs::setPermissions(P, Mode));
  llvm::Error E = writeOutput(P, "new\n");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(TempDir::read(P), "new\n");
  fs::file_status St;
  ASSERT_FALSE(fs::status(P, St));
  EXPECT_EQ(St.permissions(), Mode);
}

TEST_F(OutputTest, FailsInAMissingDirectoryAndLeavesNothing) {
  std::string P = Tmp.path("missing/k.gen.cu");
  llvm::Error E = writeOutput(P, "x\n");
  ASSERT_TRUE(bool(E));
  std::string Msg = llvm::toString(std::move(E));
  EXPECT_NE(Msg.find("cannot write '" + P + "'"), std::string::npos) << Msg;
  EXPECT_TRUE(entries().empty());
}

TEST_F(OutputTest, FailedRenameRemovesTheTemporaryFile) {
  // A directory cannot be replaced by a file.
  std::string P = Tmp.path("taken");
  ASSERT_FALSE(llvm::sys::fs::create_directory(P));
  ASSERT_FALSE(bool(writeOutput(P + "/inner", "keep\n")));
  llvm::Error E = writeOutput(P, "x\n");
  ASSERT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(entries(), (std::vector<std::string>{"taken"}));
  EXPECT_EQ(TempDir::read(P + "/inner"), "keep\n");
}

TEST_F(OutputTest, WritesNothingWhenOneOutputCannotBeStaged) {
  std::string Kept = Tmp.path("k.gen.cu");
  ASSERT_FALSE(bool(writeOutput(Kept, "old\n")));
  llvm::Error E = writeOutputs(
      {{Kept, "new\n"}, {Tmp.path("missing/k.gen.cu.d"), "deps\n"}});
  ASSERT_TRUE(bool(E));
  llvm::consumeError(std::move(E));
  EXPECT_EQ(TempDir::read(Kept), "old\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"k.gen.cu"}));
}

TEST_F(OutputTest, WritesEveryOutputTogether) {
  llvm::Error E = writeOutputs(
      {{Tmp.path("k.gen.cu"), "code\n"}, {Tmp.path("k.gen.cu.d"), "deps\n"}});
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  EXPECT_EQ(TempDir::read(Tmp.path("k.gen.cu")), "code\n");
  EXPECT_EQ(TempDir::read(Tmp.path("k.gen.cu.d")), "deps\n");
}

TEST_F(OutputTest, LeavesAReadOnlyFileAsItWas) {
  std::string P = Tmp.path("k.gen.cu");
  ASSERT_FALSE(bool(writeOutput(P, "old\n")));
  ASSERT_FALSE(llvm::sys::fs::setPermissions(P, llvm::sys::fs::all_read));
  llvm::Error E = writeOutput(P, "new\n");
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("read-only"), std::string::npos);
  EXPECT_EQ(TempDir::read(P), "old\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"k.gen.cu"}));
}

TEST_F(OutputTest, WritesThroughADeviceInsteadOfReplacingIt) {
  llvm::Error E = writeOutput("/dev/null", "x\n");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  llvm::sys::fs::file_status St;
  ASSERT_FALSE(llvm::sys::fs::status("/dev/null", St));
  EXPECT_EQ(St.type(), llvm::sys::fs::file_type::character_file);
}

TEST_F(OutputTest, RefusesAFileTheRunReadHoweverItIsSpelled) {
  std::string Source = Tmp.path("k.cu");
  ASSERT_FALSE(bool(writeOutput(Source, "source\n")));
  ASSERT_FALSE(llvm::sys::fs::create_link(Source, Tmp.path("soft.d")));
  ASSERT_FALSE(llvm::sys::fs::create_hard_link(Source, Tmp.path("hard.d")));
  for (llvm::StringRef Name : {"soft.d", "hard.d", "./k.cu"}) {
    std::string Out = (Tmp.dir() + "/" + Name).str();
    llvm::Error E = writeOutputs(
        {{Tmp.path("k.gen.cu"), "code\n"}, {Out, "deps\n"}}, {Source});
    ASSERT_TRUE(bool(E)) << Name.str();
    EXPECT_EQ(llvm::toString(std::move(E)), "cannot write '" + Out +
                                                "': it is '" + Source +
                                                "', a file this run reads");
  }
  EXPECT_EQ(TempDir::read(Source), "source\n");
  EXPECT_EQ(entries(), (std::vector<std::string>{"hard.d", "k.cu", "soft.d"}));
}

TEST_F(OutputTest, RefusesTwoOutputsThatAreOneFile) {
  std::string P = Tmp.path("k.gen.cu");
  llvm::Error E = writeOutputs(
      {{P, "code\n"}, {(Tmp.dir() + "/./k.gen.cu").str(), "deps\n"}});
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("it is also the output '" + P),
            std::string::npos);
  EXPECT_TRUE(entries().empty());
  // A device takes any number of outputs.
  llvm::Error Null = writeOutputs({{"/dev/null", "a"}, {"/dev/null", "b"}});
  EXPECT_FALSE(bool(Null)) << llvm::toString(std::move(Null));
}

TEST_F(OutputTest, WritesTheTargetOfASymbolicLinkAndKeepsTheLink) {
  Tmp.write("shared/k.gen.cu", "old\n");
  std::string Link = Tmp.path("k.gen.cu");
  ASSERT_FALSE(llvm::sys::fs::create_link("shared/k.gen.cu", Link));
  llvm::Error E = writeOutput(Link, "new\n");
  ASSERT_FALSE(bool(E)) << llvm::toString(std::move(E));
  llvm::sys::fs::file_status St;
  ASSERT_FALSE(llvm::sys::fs::status(Link, St, /*Follow=*/false));
  EXPECT_EQ(St.type(), llvm::sys::fs::file_type::symlink_file);
  EXPECT_EQ(TempDir::read(Tmp.path("shared/k.gen.cu")), "new\n");

  std::string Dangling = Tmp.path("dangling.cu");
  ASSERT_FALSE(llvm::sys::fs::create_link("missing.cu", Dangling));
  llvm::Error D = writeOutput(Dangling, "x\n");
  ASSERT_TRUE(bool(D));
  EXPECT_EQ(llvm::toString(std::move(D)),
            "cannot write '" + Dangling +
                "': it is a symbolic link to a missing file");
}

} // namespace
