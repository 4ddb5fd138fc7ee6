//===- SharedContentsTest.cpp - Files read once per run -------------------===//
#include "toolchain/SharedContents.h"
#include "TempDir.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

/// The text \p FS gives for \p Path, as Clang's FileManager reads it.
llvm::StringRef textOf(llvm::vfs::FileSystem &FS, const std::string &Path,
                       std::vector<std::unique_ptr<llvm::MemoryBuffer>> &Keep) {
  auto File = FS.openFileForRead(Path);
  EXPECT_TRUE(bool(File)) << Path;
  if (!File)
    return "";
  auto Buf = (*File)->getBuffer(Path);
  EXPECT_TRUE(bool(Buf));
  if (!Buf)
    return "";
  Keep.push_back(std::move(*Buf));
  return Keep.back()->getBuffer();
}

TEST(SharedContentsTest, AFileIsReadOncePerRun) {
  TempDir Tmp;
  std::string H = Tmp.write("inc/h.h", "int h;\n");
  SharedContents Contents;
  auto FS =
      sharedContentsFileSystem(Contents, [](llvm::StringRef) { return true; });
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Keep;
  llvm::StringRef First = textOf(*FS, H, Keep);
  llvm::StringRef Second = textOf(*FS, H, Keep);
  EXPECT_EQ(First, "int h;\n");
  EXPECT_EQ(First.data(), Second.data());
  auto Other =
      sharedContentsFileSystem(Contents, [](llvm::StringRef) { return true; });
  EXPECT_EQ(textOf(*Other, H, Keep).data(), First.data());
}

TEST(SharedContentsTest, AnEditedFileIsReadAgain) {
  TempDir Tmp;
  std::string H = Tmp.write("h.h", "int h;\n");
  SharedContents Contents;
  auto FS =
      sharedContentsFileSystem(Contents, [](llvm::StringRef) { return true; });
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Keep;
  EXPECT_EQ(textOf(*FS, H, Keep), "int h;\n");
  Tmp.write("h.h", "long hh;\n");
  EXPECT_EQ(textOf(*FS, H, Keep), "long hh;\n");
}

TEST(SharedContentsTest, AFileTheRunMayRewriteIsReadAfresh) {
  TempDir Tmp;
  std::string H = Tmp.write("tree/h.cuh", "int a;\n");
  SharedContents Contents;
  auto FS = sharedContentsFileSystem(
      Contents, [](llvm::StringRef P) { return !P.contains("tree"); });
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Keep;
  EXPECT_EQ(textOf(*FS, H, Keep), "int a;\n");
  // Same size, possibly the same modification time: still the new text.
  Tmp.write("tree/h.cuh", "int b;\n");
  EXPECT_EQ(textOf(*FS, H, Keep), "int b;\n");
}

} // namespace
