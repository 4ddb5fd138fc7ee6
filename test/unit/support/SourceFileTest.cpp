//===- SourceFileTest.cpp - Offsets to lines and columns ------------------===//
#include "support/SourceFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace metacu;

namespace {

TEST(SourceFileTest, LineColOfFirstMiddleAndLastLine) {
  //                 0123 4567 8901
  SourceFile F("a.cu", "ab\ncde\nfg\n");
  EXPECT_EQ(F.lineCol(0).Line, 1u);
  EXPECT_EQ(F.lineCol(0).Col, 1u);
  EXPECT_EQ(F.lineCol(1).Col, 2u);
  // The newline belongs to the line it ends.
  EXPECT_EQ(F.lineCol(2).Line, 1u);
  EXPECT_EQ(F.lineCol(2).Col, 3u);
  EXPECT_EQ(F.lineCol(3).Line, 2u);
  EXPECT_EQ(F.lineCol(3).Col, 1u);
  EXPECT_EQ(F.lineCol(5).Col, 3u);
  EXPECT_EQ(F.lineCol(8).Line, 3u);
  EXPECT_EQ(F.lineCol(8).Col, 2u);
  EXPECT_EQ(F.line(7), 3u);
}

TEST(SourceFileTest, OffsetAtEndOfFileIsOnTheLineAfterTheLastNewline) {
  SourceFile F("a.cu", "ab\ncd\n");
  EXPECT_EQ(F.lineCol(6).Line, 3u);
  EXPECT_EQ(F.lineCol(6).Col, 1u);
  // Past the end is clamped to the end.
  EXPECT_EQ(F.lineCol(100).Line, 3u);
  EXPECT_EQ(F.lineCol(100).Col, 1u);
}

TEST(SourceFileTest, LastLineWithoutTrailingNewline) {
  SourceFile F("a.cu", "int a;\nint bb;");
  EXPECT_EQ(F.lineCol(13).Line, 2u);
  EXPECT_EQ(F.lineCol(13).Col, 7u);
  EXPECT_EQ(F.lineText(10), "int bb;");
  EXPECT_EQ(F.lineStart(13), 7u);
  // At the very end: still the last line, one column past its text.
  EXPECT_EQ(F.lineCol(14).Line, 2u);
  EXPECT_EQ(F.lineCol(14).Col, 8u);
  EXPECT_EQ(F.lineText(14), "int bb;");
}

TEST(SourceFileTest, LineTextExcludesNewlineAndCarriageReturn) {
  SourceFile F("a.cu", "first\r\nsecond\r\nthird");
  EXPECT_EQ(F.lineText(0), "first");
  EXPECT_EQ(F.lineText(5), "first"); // the '\r' itself
  EXPECT_EQ(F.lineText(7), "second");
  EXPECT_EQ(F.lineText(16), "third");
  // CRLF counts as one line break: "second" starts line 2 at column 1.
  EXPECT_EQ(F.lineCol(7).Line, 2u);
  EXPECT_EQ(F.lineCol(7).Col, 1u);
  EXPECT_EQ(F.lineCol(15).Line, 3u);
}

TEST(SourceFileTest, ALoneCarriageReturnEndsALineAsClangReadsIt) {
  //                 01 2 3 45 6 78
  SourceFile F("a.cu", "ab\rc\r\nd\n\re");
  EXPECT_EQ(F.lineCol(3).Line, 2u); // 'c'
  EXPECT_EQ(F.lineCol(3).Col, 1u);
  EXPECT_EQ(F.lineCol(6).Line, 3u); // 'd'
  // "\n\r" is two line breaks, for Clang and nvcc alike.
  EXPECT_EQ(F.lineCol(8).Line, 4u);
  EXPECT_EQ(F.lineCol(9).Line, 5u); // 'e'
  EXPECT_EQ(F.lineText(0), "ab");
  EXPECT_EQ(F.lineText(3), "c");
  EXPECT_EQ(F.lineText(8), "");
  EXPECT_EQ(F.offsetOfLine(3), 6u);
  EXPECT_EQ(F.offsetOfLine(5), 9u);
}

TEST(SourceFileTest, LineEndIsTheFirstByteOfTheLineBreak) {
  SourceFile F("a.cu", "ab\r\ncd\ref\ngh");
  EXPECT_EQ(F.lineEnd(0), 2u);   // at the CR of CRLF
  EXPECT_EQ(F.lineEnd(3), 2u);   // the LF belongs to the same line
  EXPECT_EQ(F.lineEnd(4), 6u);   // a lone CR
  EXPECT_EQ(F.lineEnd(7), 9u);   // LF
  EXPECT_EQ(F.lineEnd(11), 12u); // no break: the end
}

TEST(SourceFileTest, LineBreakLengths) {
  EXPECT_EQ(lineBreakAt("a\r\nb", 1), 2u);
  EXPECT_EQ(lineBreakAt("a\rb", 1), 1u);
  EXPECT_EQ(lineBreakAt("a\nb", 1), 1u);
  EXPECT_EQ(lineBreakAt("a\n\rb", 1), 1u);
  EXPECT_EQ(lineBreakAt("a\r", 1), 1u);
  EXPECT_EQ(lineBreakAt("ab", 1), 0u);
  EXPECT_EQ(lineBreakAt("ab", 2), 0u);
}

TEST(SourceFileTest, UnifiedTextHasLineFeedsOnlyAndNoByteOrderMark) {
  llvm::StringRef Raw = "\xEF\xBB\xBF"
                        "a\r\nb\rc\nd";
  UnifiedText U(Raw);
  EXPECT_TRUE(U.changed());
  EXPECT_EQ(U.text(), "a\nb\nc\nd");
  EXPECT_EQ(U.offset(0), 0u); // the mark: where 'a' went
  EXPECT_EQ(U.offset(3), 0u); // 'a'
  EXPECT_EQ(U.offset(4), 1u); // CR of CRLF: where its LF went
  EXPECT_EQ(U.offset(5), 1u);
  EXPECT_EQ(U.offset(6), 2u);  // 'b'
  EXPECT_EQ(U.offset(7), 3u);  // the lone CR, now an LF
  EXPECT_EQ(U.offset(10), 6u); // 'd'
  EXPECT_EQ(U.offset(11), 7u); // the end
  // A text with LF line breaks is left as it is.
  UnifiedText Plain("a\nb\n");
  EXPECT_FALSE(Plain.changed());
  EXPECT_EQ(Plain.text(), "a\nb\n");
  // A mark that is not first is text, as for Clang.
  EXPECT_FALSE(UnifiedText("a\xEF\xBB\xBF").changed());
}

TEST(SourceFileTest, LineTextOfEmptyLines) {
  SourceFile F("a.cu", "a\n\n\nb\n");
  EXPECT_EQ(F.lineText(2), "");
  EXPECT_EQ(F.lineText(3), "");
  EXPECT_EQ(F.lineText(4), "b");
  EXPECT_EQ(F.lineCol(3).Line, 3u);
}

TEST(SourceFileTest, LineStartFindsTheFirstByteOfTheLine) {
  SourceFile F("a.cu", "ab\ncde\nfg");
  EXPECT_EQ(F.lineStart(0), 0u);
  EXPECT_EQ(F.lineStart(2), 0u);
  EXPECT_EQ(F.lineStart(3), 3u);
  EXPECT_EQ(F.lineStart(6), 3u);
  EXPECT_EQ(F.lineStart(8), 7u);
  EXPECT_EQ(F.lineStart(9), 7u);
}

TEST(SourceFileTest, OffsetOfLineIsClampedToTheFile) {
  SourceFile F("a.cu", "ab\ncde\nfg");
  EXPECT_EQ(F.offsetOfLine(1), 0u);
  EXPECT_EQ(F.offsetOfLine(2), 3u);
  EXPECT_EQ(F.offsetOfLine(3), 7u);
  EXPECT_EQ(F.offsetOfLine(4), F.size());
  EXPECT_EQ(F.offsetOfLine(99), F.size());
  EXPECT_EQ(F.offsetOfLine(0), 0u);
  // Round trip with lineCol for every line.
  for (unsigned L = 1; L <= 3; ++L)
    EXPECT_EQ(F.lineCol(F.offsetOfLine(L)).Line, L);
}

TEST(SourceFileTest, EmptyFileHasOneLine) {
  SourceFile F("e.cu", "");
  EXPECT_EQ(F.size(), 0u);
  EXPECT_EQ(F.lineCol(0).Line, 1u);
  EXPECT_EQ(F.lineCol(0).Col, 1u);
  EXPECT_EQ(F.lineText(0), "");
  EXPECT_EQ(F.offsetOfLine(1), 0u);
  EXPECT_EQ(F.offsetOfLine(2), 0u);
}

TEST(SourceFileTest, TextIsNulTerminatedAndPathKeptAsSpelled) {
  SourceFile F("../dir/k.cu", "x;");
  EXPECT_EQ(F.path(), "../dir/k.cu");
  EXPECT_EQ(F.data()[F.size()], '\0');
  EXPECT_EQ(F.text(), "x;");
}

TEST(SourceFileTest, LoadReadsAFileAndReportsAMissingOne) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("sourcefile", "cu", Path));
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    ASSERT_FALSE(EC);
    OS << "line1\nline2";
  }
  auto F = SourceFile::load(Path);
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_EQ(F->path(), Path.str());
  EXPECT_EQ(F->lineText(7), "line2");
  llvm::sys::fs::remove(Path);

  auto Missing = SourceFile::load(Path);
  ASSERT_FALSE(bool(Missing));
  std::string Msg = llvm::toString(Missing.takeError());
  EXPECT_NE(Msg.find("cannot read"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find(Path.str().str()), std::string::npos) << Msg;
}

TEST(SourceFileTest, LoadRefusesAPipeInsteadOfWaitingOnIt) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("sourcefile", Dir));
  std::string Path = (Dir + "/pipe.cu").str();
  ASSERT_EQ(mkfifo(Path.c_str(), 0600), 0);
  auto F = SourceFile::load(Path);
  ASSERT_FALSE(bool(F));
  std::string Msg = llvm::toString(F.takeError());
  EXPECT_NE(Msg.find("cannot read '" + Path + "': not a regular file"),
            std::string::npos)
      << Msg;
  llvm::sys::fs::remove(Path);
  llvm::sys::fs::remove(Dir);
}

TEST(SourceFileTest, OriginFollowsTheMarksOfSplicedFiles) {
  //                 0   4        13   18
  SourceFile F("k.cu", "in\nh1\nh2 x\nrest\n");
  // Without marks every offset is the file's own.
  EXPECT_EQ(F.origin(3).Path, "k.cu");
  EXPECT_EQ(F.origin(3).Where.Line, 2u);
  F.markOrigin(3, "inc/h.cuh", 1);
  F.markOrigin(11, "k.cu", 3);
  EXPECT_EQ(F.origin(0).Path, "k.cu");
  EXPECT_EQ(F.origin(0).Where.Line, 1u);
  Origin H2 = F.origin(9); // 'x' of "h2 x"
  EXPECT_EQ(H2.Path, "inc/h.cuh");
  EXPECT_EQ(H2.Where.Line, 2u);
  EXPECT_EQ(H2.Where.Col, 4u);
  EXPECT_EQ(F.origin(12).Path, "k.cu");
  EXPECT_EQ(F.origin(12).Where.Line, 3u);
  // lineCol() still counts the text's own lines.
  EXPECT_EQ(F.lineCol(12).Line, 4u);
}

TEST(SourceFileTest, MarksNameTheFileForLineDirectivesApart) {
  SourceFile F("k.cu", "in\nh1\nrest\n");
  F.markOrigin(3, "metacu/h.cuh", 1, /*Library=*/true, "/opt/inc/metacu/h.cuh");
  F.markOrigin(6, "k.cu", 2);
  EXPECT_EQ(F.origin(0).LinePath, "k.cu");
  EXPECT_EQ(F.origin(3).Path, "metacu/h.cuh");
  EXPECT_EQ(F.origin(3).LinePath, "/opt/inc/metacu/h.cuh");
  // Without a name of its own, a mark's file is named alike in both.
  EXPECT_EQ(F.origin(6).LinePath, "k.cu");
}

TEST(SourceFileTest, MarksSayWhichIncludeOfTheTextReadTheirFile) {
  SourceFile F("k.cu", "in\nh1\nrest\n");
  F.markOrigin(3, "inc/h.cuh", 1, false, {}, /*IncludedAt=*/2);
  F.markOrigin(6, "k.cu", 3);
  EXPECT_EQ(F.origin(0).IncludedAt, 0u);
  EXPECT_EQ(F.origin(4).IncludedAt, 2u);
  EXPECT_EQ(F.origin(6).IncludedAt, 0u);
}

TEST(SourceFileTest, OfMarksAtOneOffsetTheLastCounts) {
  // An empty header spliced in: its mark and the includer's coincide.
  SourceFile F("k.cu", "a\nb\n");
  F.markOrigin(2, "empty.cuh", 1);
  F.markOrigin(2, "k.cu", 3);
  EXPECT_EQ(F.origin(2).Path, "k.cu");
  EXPECT_EQ(F.origin(2).Where.Line, 3u);
}

} // namespace

TEST(SourceFileTest, WithTextKeepsTheMarksOnTheirLines) {
  SourceFile F("k.cu", "in\nh1\nh2 x\nrest\n");
  F.markOrigin(3, "inc/h.cuh", 1, false, {}, /*IncludedAt=*/1);
  // Line 2 grew: the mark stays at its start, the lines below follow.
  SourceFile G = F.withText("in\nh1 longer\nh2 x\nrest\n");
  EXPECT_EQ(G.path(), "k.cu");
  EXPECT_EQ(G.origin(3).Path, "inc/h.cuh");
  Origin H2 = G.origin(G.text().find("x"));
  EXPECT_EQ(H2.Path, "inc/h.cuh");
  EXPECT_EQ(H2.Where.Line, 2u);
  EXPECT_EQ(H2.IncludedAt, 1u);
  EXPECT_EQ(G.origin(0).Path, "k.cu");
}
