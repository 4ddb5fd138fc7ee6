//===- StringLiteralTest.cpp - Text written as a C++ string literal -------===//
#include "support/StringLiteral.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(StringLiteralTest, QuotesAndBackslashesAreEscaped) {
  EXPECT_EQ(stringLiteral("a\"b\\c"), "\"a\\\"b\\\\c\"");
}

TEST(StringLiteralTest, ControlCharactersCannotEndTheLiteral) {
  EXPECT_EQ(escapedForStringLiteral("a\nb\tc\rd\x7f", NonAscii::Keep),
            "a\\nb\\tc\\015d\\177");
}

TEST(StringLiteralTest, AnOctalEscapeDoesNotSwallowTheDigitAfterIt) {
  // "\0017" is the byte 1, then the digit 7.
  EXPECT_EQ(escapedForStringLiteral("\0017", NonAscii::Escape), "\\0017");
}

TEST(StringLiteralTest, NonAsciiBytesAreKeptOrEscapedAsAsked) {
  llvm::StringRef Name = "caf\xc3\xa9.cu";
  EXPECT_EQ(escapedForStringLiteral(Name, NonAscii::Keep), Name.str());
  EXPECT_EQ(escapedForStringLiteral(Name, NonAscii::Escape),
            "caf\\303\\251.cu");
}

TEST(StringLiteralTest, ANulByteIsEscaped) {
  EXPECT_EQ(stringLiteral(llvm::StringRef("a\0b", 3)), "\"a\\000b\"");
}

} // namespace
