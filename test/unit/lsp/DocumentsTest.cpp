//===- DocumentsTest.cpp - Open files: edits, the dialect, URIs -----------===//
#include "lsp/Documents.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

llvm::json::Object change(unsigned L0, unsigned C0, unsigned L1, unsigned C1,
                          llvm::StringRef Text) {
  auto P = [](unsigned L, unsigned C) {
    return llvm::json::Object{{"line", L}, {"character", C}};
  };
  return llvm::json::Object{
      {"range", llvm::json::Object{{"start", P(L0, C0)}, {"end", P(L1, C1)}}},
      {"text", Text.str()}};
}

TEST(DocumentsTest, AChangeReplacesItsRange) {
  TextLines T("int a;\nint é = 1;\n");
  auto New = applyChange(T, change(1, 4, 1, 5, "b"), PositionEncoding::UTF16);
  ASSERT_TRUE(bool(New));
  EXPECT_EQ(*New, "int a;\nint b = 1;\n");
  auto Whole = applyChange(T, llvm::json::Object{{"text", "x"}},
                           PositionEncoding::UTF16);
  EXPECT_EQ(*Whole, "x");
}

TEST(DocumentsTest, ABackwardRangeIsAnError) {
  auto New = applyChange(TextLines("abc"), change(0, 2, 0, 1, ""),
                         PositionEncoding::UTF16);
  EXPECT_FALSE(bool(New));
  llvm::consumeError(New.takeError());
}

TEST(DocumentsTest, TheDialectIsToldByItsConstructs) {
  EXPECT_FALSE(isDialect("k.cu", "__global__ void k() { int at = 1; }\n"));
  EXPECT_FALSE(isDialect("k.cu", "// @meta in a comment\nconst char *s = "
                                 "\"@meta\";\n"));
  EXPECT_TRUE(isDialect("k.cu", "@meta int n = 4;\n"));
  EXPECT_TRUE(isDialect("k.cu", "void f() { if codegen (__nvvm_arch >= "
                                "nvvm_arch_t::sm_80) {} }\n"));
  EXPECT_TRUE(isDialect("k.cu", "int x = @(1 + 2);\n"));
  EXPECT_TRUE(isDialect("k.cu", "int a = (int)__nvvm_arch;\n"));
}

TEST(DocumentsTest, UrisRoundTripWithEscapes) {
  std::string Uri = pathToUri("/a b/c#d.cu");
  EXPECT_EQ(Uri, "file:///a%20b/c%23d.cu");
  EXPECT_EQ(uriToPath(Uri), "/a b/c#d.cu");
  EXPECT_EQ(uriToPath("untitled:1"), std::nullopt);
}

} // namespace

namespace {

TEST(DocumentsTest, TheDifferenceKeepsBothEnds) {
  TextEdit E = difference("int a = 1;\n", "int ab = 1;\n");
  EXPECT_EQ(E.Begin, 5u);
  EXPECT_EQ(E.End, 5u);
  EXPECT_EQ(E.Text, "b");
  E = difference("abc", "abc");
  EXPECT_EQ(E.Begin, E.End);
  EXPECT_EQ(E.Text, "");
}

TEST(DocumentsTest, OnlyEditsOfOrdinaryCodeAreOrdinary) {
  llvm::StringRef Old = "@meta int n = 4;\nint a = 1;\n";
  auto Ordinary = [&](llvm::StringRef New) {
    return editsOrdinaryCode("k.cu", Old, New, difference(Old, New));
  };
  EXPECT_TRUE(Ordinary("@meta int n = 4;\nint a = 12;\n"));
  EXPECT_TRUE(Ordinary("@meta int n = 4;\nint ab = 1;\n"));
  // Lines added or removed.
  EXPECT_TRUE(Ordinary("@meta int n = 4;\nint a = 1;\nint b;\n"));
  EXPECT_TRUE(Ordinary("@meta int n = 4;\nint a =\n  1;\n"));
  EXPECT_TRUE(Ordinary("@meta int n = 4;\n"));
  // A meta name, a construct.
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = n;\n"));
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = @(1);\n"));
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = 1;\nint b = n;\n"));
  // Renaming a meta variable touches a name meta code declares. (Other
  // edits of meta code pass here: the expansion has no copy of them, which
  // ExpandedDocument::withEdit finds.)
  EXPECT_FALSE(Ordinary("@meta int n2 = 4;\nint a = 1;\n"));
}

TEST(DocumentsTest, ACommentOrLiteralEditedLeavesWhatFollowsAlone) {
  auto Ordinary = [](llvm::StringRef Old, llvm::StringRef New) {
    return editsOrdinaryCode("k.cu", Old, New, difference(Old, New));
  };
  llvm::StringRef Old = "@meta int n = 4;\nint a = 1;\nint b = 2;\n";
  EXPECT_TRUE(Ordinary(Old, "@meta int n = 4;\nint a = 1; // x\nint b = 2;\n"));
  EXPECT_TRUE(
      Ordinary(Old, "@meta int n = 4;\n// a\nint a = 1;\nint b = 2;\n"));
  EXPECT_TRUE(Ordinary("@meta int n = 4;\nauto s = \"ab\";\n",
                       "@meta int n = 4;\nauto s = \"a/b\";\n"));
  // A block comment or a string left open changes the lines after.
  EXPECT_FALSE(Ordinary(Old, "@meta int n = 4;\nint a = 1; /*\nint b = 2;\n"));
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = 1; /* x */\nint b = 2;\n",
                        "@meta int n = 4;\nint a = 1; /* x \nint b = 2;\n"));
  // Uncovering a construct on the line.
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = 1; // @meta int m;\n",
                        "@meta int n = 4;\nint a = 1;  @meta int m;\n"));
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = 1; // @meta int m;\n",
                        "@meta int n = 4;\nint a = 1; \n@meta int m;\n"));
}

TEST(DocumentsTest, ALineBreakNeitherEndsNorExtendsADirective) {
  auto Ordinary = [](llvm::StringRef Old, llvm::StringRef New) {
    return editsOrdinaryCode("k.cu", Old, New, difference(Old, New));
  };
  llvm::StringRef Old = "@meta int n = 4;\n#define W 4\nint a = W;\n";
  // Split, or joined with the next line.
  EXPECT_FALSE(Ordinary(Old, "@meta int n = 4;\n#define W\n 4\nint a = W;\n"));
  EXPECT_FALSE(Ordinary(Old, "@meta int n = 4;\n#define W 4int a = W;\n"));
  // Without a line break, as before: the value of W in ordinary code.
  EXPECT_TRUE(Ordinary(Old, "@meta int n = 4;\n#define W 5\nint a = W;\n"));
  // A continued line, and a text with CR line breaks.
  EXPECT_FALSE(Ordinary("@meta int n = 4;\nint a = \\\n  1;\n",
                        "@meta int n = 4;\nint a = \\\n\n  1;\n"));
  EXPECT_FALSE(Ordinary("@meta int n = 4;\r\nint a;\r\n",
                        "@meta int n = 4;\r\nint a;\nint b;\r\n"));
}

TEST(DocumentsTest, AnEditMovedBackHasTheSameResult) {
  llvm::StringRef Old = "a;\n  \n#if X\n";
  // "  \n" inserted at the start of '#if', and removed again.
  TextEdit In = movedBack("a;\n#if X\n", {3, 3, "  \n"});
  EXPECT_EQ(In.Begin, 2u);
  EXPECT_EQ(In.End, 2u);
  EXPECT_EQ(In.Text, "\n  ");
  TextEdit Out = movedBack(Old, {3, 6, ""});
  EXPECT_EQ(Out.Begin, 2u);
  EXPECT_EQ(Out.End, 5u);
  // Neither moves over a byte that differs, nor does a replacement move.
  EXPECT_EQ(movedBack("ab", {1, 1, "x"}).Begin, 1u);
  EXPECT_EQ(movedBack("ab", {1, 2, "x"}).Begin, 1u);
}

TEST(DocumentsTest, ALineBreakBeforeADirectiveMovedBackIsOrdinary) {
  // A line of indentation added before '#pragma unroll', and removed: at
  // the directive's start as difference() tells it, after the line before
  // moved back.
  llvm::StringRef Old = "@meta int n = 4;\nint a;\n#pragma unroll\n";
  llvm::StringRef New = "@meta int n = 4;\nint a;\n  \n#pragma unroll\n";
  for (auto [From, To] : {std::pair{Old, New}, std::pair{New, Old}}) {
    TextEdit E = difference(From, To);
    EXPECT_FALSE(editsOrdinaryCode("k.cu", From, To, E));
    EXPECT_TRUE(editsOrdinaryCode("k.cu", From, To, movedBack(From, E)));
  }
}

} // namespace
