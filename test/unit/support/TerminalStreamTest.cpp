//===- TerminalStreamTest.cpp - Text from files, made safe for a terminal -===//
#include "support/TerminalStream.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

std::string throughTerminal(std::initializer_list<llvm::StringRef> Writes) {
  std::string Out;
  llvm::raw_string_ostream To(Out);
  {
    TerminalStream T(To);
    for (llvm::StringRef W : Writes)
      T << W;
  }
  return Out;
}

TEST(TerminalStreamTest, ControlCharactersShowAsEscapes) {
  // A colour change, a carriage return that would hide the line, a bell.
  EXPECT_EQ(throughTerminal({"H100\x1b[31m red\r\x07 \x7f"}),
            "H100\\x1b[31m red\\x0d\\x07 \\x7f");
}

TEST(TerminalStreamTest, NewlinesTabsAndUtf8PassAsTheyAre) {
  llvm::StringRef Text = "best\tcaf\xc3\xa9\n\xc2\xb5s \xe2\x80\x94\n";
  EXPECT_EQ(throughTerminal({Text}), Text.str());
}

TEST(TerminalStreamTest, AC1ControlIsEscapedEvenSplitAcrossWrites) {
  // U+009B is a control sequence introducer to some UTF-8 terminals.
  EXPECT_EQ(throughTerminal({"a\xc2\x9b"
                             "31m"}),
            "a\\u009b31m");
  EXPECT_EQ(throughTerminal({"a\xc2", "\x9b"
                                      "31m"}),
            "a\\u009b31m");
  // A 0xC2 that ends the text is written when the stream closes.
  EXPECT_EQ(throughTerminal({"a\xc2", "\xb5", "b\xc2"}), "a\xc2\xb5"
                                                         "b\xc2");
}

} // namespace
