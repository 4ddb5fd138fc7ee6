//===- ExpandedDocumentTest.cpp - A dialect file as clangd sees it --------===//
#include "lsp/ExpandedDocument.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// "int a = @(n);" expanded twice: "int a = 4;" for the host pass and
/// "int a = 8;" for the first architecture, after a prelude "P\n".
ExpandedDocument twoPasses(uint64_t Pass) {
  std::string Text = "P\nint a = 4;\nint a = 8;\n";
  OutputMap M;
  unsigned F = M.fileIndex("/k.cu");
  for (unsigned Line : {2u, 13u}) {
    uint64_t Passes = Line == 2 ? 1 : 2;
    M.add({Line, Line + 8, {F, 1, 1, true}, Passes});
    M.add({Line + 8, Line + 9, {F, 1, 9, false}, Passes});
    M.add({Line + 9, Line + 10, {F, 1, 13, true}, Passes});
  }
  return ExpandedDocument(Text, 2, std::move(M), "/k.cu", Pass);
}

TEST(ExpandedDocumentTest, ThePreludeIsApart) {
  ExpandedDocument D = twoPasses(1);
  EXPECT_EQ(D.prelude(), "P\n");
  EXPECT_EQ(D.body().text(), "int a = 4;\nint a = 8;\n");
}

TEST(ExpandedDocumentTest, BodyBytesMapToTheUsersText) {
  ExpandedDocument D = twoPasses(1);
  auto A = D.toUser(4);
  ASSERT_TRUE(A);
  EXPECT_EQ(A->Path, "/k.cu");
  EXPECT_EQ(A->Line, 0u);
  EXPECT_EQ(A->Col, 4u);
  EXPECT_TRUE(A->Verbatim);
  auto Value = D.toUser(8);
  ASSERT_TRUE(Value);
  EXPECT_FALSE(Value->Verbatim);
  EXPECT_EQ(Value->Col, 8u);
  EXPECT_FALSE(D.toUser(10)); // the line break
}

TEST(ExpandedDocumentTest, TheUsersBytesGoToTheCopyThePassShownKeeps) {
  EXPECT_EQ(twoPasses(1).toBody(0, 4), 4u);
  EXPECT_EQ(twoPasses(2).toBody(0, 4), 15u);
  EXPECT_TRUE(twoPasses(2).live(15));
  EXPECT_FALSE(twoPasses(2).live(4));
  // Inside the splice: no copy.
  EXPECT_FALSE(twoPasses(1).toBody(0, 9));
}

TEST(ExpandedDocumentTest, AMetaValueIsTheConstantOfThePassShown) {
  EXPECT_EQ(twoPasses(1).generatedAt(0, 8), "4");
  EXPECT_EQ(twoPasses(2).generatedAt(0, 8), "8");
  EXPECT_FALSE(twoPasses(1).generatedAt(0, 4));
}

} // namespace

namespace {

TEST(ExpandedDocumentTest, AnEditOfCopiedBytesEditsEveryCopy) {
  // "int a = @(n);" -> "int ab = @(n);": both copies, the splice moved.
  auto E = twoPasses(1).withLineEdit(0, 5, 5, "b");
  ASSERT_TRUE(E);
  EXPECT_EQ(E->body().text(), "int ab = 4;\nint ab = 8;\n");
  EXPECT_EQ(E->toBody(0, 5), 5u);
  EXPECT_EQ(E->generatedAt(0, 9), "4");
  auto Semi = E->toUser(10);
  ASSERT_TRUE(Semi);
  EXPECT_EQ(Semi->Col, 13u);
  EXPECT_EQ(E->toUser(21)->Col, 9u); // the second copy's constant
}

TEST(ExpandedDocumentTest, AnEditOfAMetaValueOrMetaCodeIsNoCopyEdit) {
  EXPECT_FALSE(twoPasses(1).withLineEdit(0, 9, 10, "m")); // in '@(n)'
  EXPECT_FALSE(twoPasses(1).withLineEdit(0, 6, 10, "x")); // across it
  EXPECT_FALSE(twoPasses(1).withLineEdit(1, 0, 0, "x"));  // no copy
}

} // namespace
