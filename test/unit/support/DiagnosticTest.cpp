//===- DiagnosticTest.cpp - Clang-style located diagnostics ---------------===//
#include "support/Diagnostic.h"

#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

std::string print(const SourceFile &F, unsigned Offset, llvm::StringRef Sev,
                  llvm::StringRef Msg) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  SourceError(F, Offset, Msg.str(), Sev.str()).log(OS);
  OS << '\n';
  return S;
}

TEST(DiagnosticTest, PrintsFileLineColumnMessageSourceLineAndCaret) {
  SourceFile F("dir/k.cu", "int a;\n  int bad = 1;\nint c;\n");
  // Offset of "bad": line 2 starts at 7, 'b' at 7 + 6.
  EXPECT_EQ(print(F, 13, "error", "something is wrong"),
            "dir/k.cu:2:7: error: something is wrong\n"
            "  int bad = 1;\n"
            "      ^\n");
}

TEST(DiagnosticTest, SeverityIsPrintedAsGiven) {
  SourceFile F("k.cu", "x\n");
  EXPECT_EQ(print(F, 0, "warning", "w"), "k.cu:1:1: warning: w\nx\n^\n");
}

TEST(DiagnosticTest, TabsBeforeTheColumnAreKeptUnderTheCaret) {
  SourceFile F("k.cu", "\tint\t x;\n");
  // 'x' is at offset 6: tab, "int", tab, space.
  EXPECT_EQ(print(F, 6, "error", "m"), "k.cu:1:7: error: m\n"
                                       "\tint\t x;\n"
                                       "\t   \t ^\n");
}

TEST(DiagnosticTest, CaretOnLastLineWithoutNewlineAndCRLF) {
  SourceFile F("k.cu", "a;\r\n  b");
  EXPECT_EQ(print(F, 6, "error", "m"), "k.cu:2:3: error: m\n  b\n  ^\n");
  // The '\r' is not printed as part of the source line.
  EXPECT_EQ(print(F, 1, "error", "m"), "k.cu:1:2: error: m\na;\n ^\n");
}

TEST(DiagnosticTest, CaretAtEndOfFilePointsPastTheText) {
  SourceFile F("k.cu", "abc");
  EXPECT_EQ(print(F, 3, "error", "eof"), "k.cu:1:4: error: eof\nabc\n   ^\n");
}

TEST(DiagnosticTest, PrintErrorsPrintsALocatedErrorAtItsPlace) {
  SourceFile F("k.cu", "int x;\nfoo bar;\n");
  std::string S;
  llvm::raw_string_ostream OS(S);
  EXPECT_TRUE(printErrors(OS, locate(F, errorAt(11, "unknown type 'foo'"))));
  EXPECT_EQ(S, "k.cu:2:5: error: unknown type 'foo'\nfoo bar;\n    ^\n");
}

TEST(DiagnosticTest, PrintErrorsPrintsOtherErrorsWithoutLocation) {
  SourceFile F("k.cu", "int x;\n");
  std::string S;
  llvm::raw_string_ostream OS(S);
  EXPECT_TRUE(
      printErrors(OS, locate(F, llvm::createStringError("bad flag '-q'"))));
  EXPECT_EQ(S, "metacu: error: bad flag '-q'\n");
}

TEST(DiagnosticTest, PrintErrorsPrintsNothingForAnEmptyMessage) {
  SourceFile F("k.cu", "int x;\n");
  std::string S;
  llvm::raw_string_ostream OS(S);
  EXPECT_FALSE(
      printErrors(OS, locate(F, llvm::make_error<llvm::StringError>(
                                    "", llvm::inconvertibleErrorCode()))));
  EXPECT_EQ(S, "");
}

TEST(DiagnosticTest, PrintErrorsPrintsEveryErrorOfAList) {
  SourceFile F("k.cu", "a\nb\n");
  std::string S;
  llvm::raw_string_ostream OS(S);
  llvm::Error E =
      llvm::joinErrors(errorAt(0, "first"), llvm::createStringError("second"));
  EXPECT_TRUE(printErrors(OS, locate(F, std::move(E))));
  EXPECT_EQ(S, "k.cu:1:1: error: first\na\n^\nmetacu: error: second\n");
}

TEST(DiagnosticTest, ClangsCommandLineBuffersNameTheirOption) {
  EXPECT_EQ(optionBehindBuffer("<built-in>"), "-include");
  EXPECT_EQ(optionBehindBuffer("<command line>"), "-D or -U");
  EXPECT_EQ(optionBehindBuffer("k.cu"), "");
  EXPECT_EQ(optionBehindBuffer("built-in"), "");
}

TEST(DiagnosticTest, AnErrorInASplicedFileKnowsTheIncludeThatReadIt) {
  SourceFile F("k.cu", "in\nh1 x\nrest\n");
  F.markOrigin(3, "h.cuh", 1, false, {}, /*IncludedAt=*/2);
  F.markOrigin(8, "k.cu", 3);
  SourceError InHeader(F, 6, "bad");
  EXPECT_EQ(InHeader.path(), "h.cuh");
  EXPECT_EQ(InHeader.includedAt(), 2u);
  // Printed as before: the place in the header.
  EXPECT_EQ(print(F, 6, "error", "bad"), "h.cuh:1:4: error: bad\nh1 x\n   ^\n");
  EXPECT_EQ(SourceError(F, 8, "own").includedAt(), 0u);
}

TEST(DiagnosticTest, LocatedErrorKeepsOffsetAndMessage) {
  llvm::Error E = errorAt(42, "msg " + llvm::Twine(7));
  unsigned Offset = 0;
  std::string Text;
  llvm::handleAllErrors(std::move(E), [&](const LocatedError &L) {
    Offset = L.offset();
    Text = L.text();
  });
  EXPECT_EQ(Offset, 42u);
  EXPECT_EQ(Text, "msg 7");
}

} // namespace
