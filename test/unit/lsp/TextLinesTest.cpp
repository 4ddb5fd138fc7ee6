//===- TextLinesTest.cpp - LSP positions and bytes ------------------------===//
#include "lsp/TextLines.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(TextLinesTest, ColumnsCountInTheAgreedEncoding) {
  // 'é' is two bytes and one UTF-16 unit; '😀' four bytes and two units.
  TextLines T("a\nxé😀y\n");
  EXPECT_EQ(T.offset({1, 2}, PositionEncoding::UTF16), 5u);
  EXPECT_EQ(T.offset({1, 4}, PositionEncoding::UTF16), 9u);
  EXPECT_EQ(T.offset({1, 3}, PositionEncoding::UTF32), 9u);
  EXPECT_EQ(T.offset({1, 7}, PositionEncoding::UTF8), 9u);
  EXPECT_EQ(T.position(9, PositionEncoding::UTF16).Character, 4u);
  EXPECT_EQ(T.position(9, PositionEncoding::UTF8).Character, 7u);
}

TEST(TextLinesTest, PositionsPastTheEndAreClamped) {
  TextLines T("ab\ncd");
  EXPECT_EQ(T.offset({0, 10}, PositionEncoding::UTF16), 2u);
  EXPECT_EQ(T.offset({7, 0}, PositionEncoding::UTF16), 5u);
  EXPECT_EQ(T.line(1), "cd");
  EXPECT_EQ(T.lineCount(), 2u);
}

TEST(TextLinesTest, ALineEndsBeforeItsCarriageReturn) {
  TextLines T("ab\r\ncd\n");
  EXPECT_EQ(T.line(0), "ab");
  EXPECT_EQ(T.offset({0, 5}, PositionEncoding::UTF16), 2u);
}

} // namespace
