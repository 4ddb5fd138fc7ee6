//===- LineTableTest.cpp - A file's lines as Clang splits them ------------===//
#include "migrate/LineTable.h"
#include "migrate/Facts.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

TEST(LineTableTest, CrLfAndCrlfEachEndALine) {
  std::string Text = "a\rbb\r\nc\nd";
  LineTable L(Text);
  ASSERT_EQ(L.size(), 4u);
  EXPECT_EQ(L.text(1), "a");
  EXPECT_EQ(L.lineBreak(1), "\r");
  EXPECT_EQ(L.text(2), "bb");
  EXPECT_EQ(L.lineBreak(2), "\r\n");
  EXPECT_EQ(L.text(3), "c");
  EXPECT_EQ(L.lineBreak(3), "\n");
  EXPECT_EQ(L.text(4), "d");
  EXPECT_EQ(L.lineBreak(4), "");
  EXPECT_EQ(L.lineOf(Text.find("bb")), 2u);
  EXPECT_EQ(L.lineOf(Text.find("\r\n") + 1), 2u); // a break is its line's
  EXPECT_EQ(L.begin(3), Text.find('c'));
  EXPECT_EQ(L.end(3), Text.find('d'));
}

TEST(LineTableTest, ALastLineBreakStartsNoLine) {
  LineTable L("a\r");
  EXPECT_EQ(L.size(), 1u);
  EXPECT_EQ(L.end(1), 2u);
}

TEST(LineTableTest, AByteOrderMarkIsNoPartOfTheFirstLine) {
  std::string Text = "\xEF\xBB\xBF#if X\r\n#endif\r\n";
  LineTable L(Text);
  EXPECT_EQ(L.begin(1), 3u);
  EXPECT_EQ(L.text(1), "#if X");
  EXPECT_EQ(L.lineOf(0), 1u);
  EXPECT_EQ(L.text(2), "#endif");
}

} // namespace

namespace {

// The sites of a file share one table, made when the passes are done:
// one per site made a file with thousands of conditionals quadratic to
// audit.
TEST(LineTableTest, FactsMakeOneTablePerFile) {
  Facts F;
  F.Buffers["a.cu"] = "x\ny\n";
  F.Buffers["b.cu"] = "x\n";
  F.makeLineTables();
  const LineTable &First = F.linesOf("a.cu");
  EXPECT_EQ(&First, &F.linesOf("a.cu"));
  EXPECT_EQ(First.size(), 2u);
  EXPECT_EQ(First.text(2), "y");
  EXPECT_EQ(F.linesOf("b.cu").size(), 1u);
  EXPECT_EQ(F.linesOf("none.cu").size(), 1u);
}

} // namespace
