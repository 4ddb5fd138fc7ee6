//===- SplicedFilesTest.cpp - Dialect headers' text as files clangd reads -===//
#include "lsp/SplicedFiles.h"
#include "../TempDir.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// A line of an expansion: its text, and the file and 1-based line it
/// copies whole (none: a directive the emit stage wrote).
struct Line {
  std::string Text, File;
  unsigned At = 0;
};

/// The expansion of \p Lines after a prelude "P\n", and its map.
struct Expansion {
  std::string Text = "P\n";
  OutputMap Map;
  explicit Expansion(std::initializer_list<Line> Lines) {
    for (const Line &L : Lines) {
      if (!L.File.empty() && !L.Text.empty())
        Map.add({unsigned(Text.size()),
                 unsigned(Text.size() + L.Text.size()),
                 {Map.fileIndex(L.File), L.At, 1, true}});
      Text += L.Text + "\n";
    }
  }
};

/// /d/k.cu: '#include <cstdio>', '#include "h.cuh"' (a dialect header of
/// one line), and a kernel.
Expansion headerAmongIncludes() {
  return Expansion({{"#line 1 \"/d/k.cu\""},
                    {"#include <cstdio>", "/d/k.cu", 1},
                    {"#line 1 \"/d/h.cuh\""},
                    {"__device__ int h() { return 1; }", "/d/h.cuh", 1},
                    {"#line 3 \"/d/k.cu\""},
                    {"__global__ void k() {}", "/d/k.cu", 3}});
}

/// The bytes of \p Body that clangd's preamble holds (Clang's rule: the
/// leading preprocessor directives).
llvm::StringRef preamble(llvm::StringRef Body) {
  clang::LangOptions LO;
  LO.CPlusPlus = true;
  return Body.take_front(clang::Lexer::ComputePreamble(Body, LO).Size);
}

TEST(SplicedFilesTest, AHeadersTextBecomesAFileThePreambleIncludes) {
  Expansion X = headerAmongIncludes();
  SplitExpansion S = splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t");
  ASSERT_EQ(S.Files.size(), 1u);
  const SplicedFile &F = *S.Files[0];
  EXPECT_TRUE(llvm::StringRef(F.Path).starts_with("/t/"));
  EXPECT_TRUE(llvm::StringRef(F.Path).ends_with(".cuh"));
  EXPECT_EQ(F.Text.text(), "__device__ int h() { return 1; }\n");
  llvm::StringRef Body = llvm::StringRef(S.Text).drop_front(2);
  EXPECT_EQ(Body, "#line 1 \"/d/k.cu\"\n#include <cstdio>\n"
                  "#line 1 \"/d/h.cuh\"\n#include \"" +
                      F.Path +
                      "\"\n#line 3 \"/d/k.cu\"\n__global__ void k() {}\n");
  // clangd's preamble now ends at the file's own code, the header's text
  // in it; before, it ended where that text began.
  EXPECT_EQ(preamble(Body), Body.take_front(Body.find("__global__")));
  llvm::StringRef Before = llvm::StringRef(X.Text).drop_front(2);
  EXPECT_EQ(preamble(Before), Before.take_front(Before.find("__device__")));
  // Every byte still lands where it was written from.
  auto InHeader = F.toUser(15);
  ASSERT_TRUE(InHeader);
  EXPECT_EQ(InHeader->Path, "/d/h.cuh");
  EXPECT_EQ(InHeader->Line, 0u);
  EXPECT_EQ(InHeader->Col, 15u);
  auto Kernel = S.Map.toInput(S.Text.find("void k"));
  ASSERT_TRUE(Kernel);
  EXPECT_EQ(S.Map.files()[Kernel->File], "/d/k.cu");
  EXPECT_EQ(Kernel->Line, 3u);
  EXPECT_EQ(Kernel->Col, 12u);
  EXPECT_FALSE(S.Map.toInput(S.Text.find("#include \"/t")));
}

TEST(SplicedFilesTest, AFileIsNamedByItsContents) {
  Expansion X = headerAmongIncludes();
  SplitExpansion A = splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t");
  SplitExpansion B = splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t");
  Expansion Y({{"#line 1 \"/d/h.cuh\""},
               {"__device__ int h() { return 2; }", "/d/h.cuh", 1},
               {"#line 3 \"/d/k.cu\""},
               {"__global__ void k() {}", "/d/k.cu", 3}});
  SplitExpansion C = splitSplicedText(Y.Text, 2, Y.Map, "/d/k.cu", "/t");
  ASSERT_EQ(A.Files.size(), 1u);
  ASSERT_EQ(C.Files.size(), 1u);
  EXPECT_EQ(A.Files[0]->Path, B.Files[0]->Path);
  EXPECT_NE(A.Files[0]->Path, C.Files[0]->Path);
}

TEST(SplicedFilesTest, TextThatDoesNotReadAsAFileStaysInPlace) {
  // A brace the file closes, a conditional it ends, a comment it ends.
  for (auto [Open, Close] :
       {std::pair<std::string, std::string>{"extern \"C\" {", "}"},
        {"#if defined(X)", "#endif"},
        {"/* a comment", "*/"}}) {
    Expansion X({{Open, "/d/h.cuh", 1},
                 {"int a;", "/d/h.cuh", 2},
                 {Close, "/d/k.cu", 2}});
    SplitExpansion S = splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t");
    EXPECT_TRUE(S.Files.empty()) << Open;
    EXPECT_EQ(S.Text, X.Text);
  }
  // A comment open where it starts.
  Expansion Y({{"/* a", "/d/k.cu", 1},
               {"b */ int c;", "/d/h.cuh", 1},
               {"int d;", "/d/k.cu", 2}});
  EXPECT_TRUE(
      splitSplicedText(Y.Text, 2, Y.Map, "/d/k.cu", "/t").Files.empty());
  // A line the header's text continues.
  Expansion X({{"#define A \\", "/d/k.cu", 1}, {"int a;", "/d/h.cuh", 1}});
  EXPECT_TRUE(
      splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t").Files.empty());
}

TEST(SplicedFilesTest, TextBetweenTheFilesOwnLinesIsAFileToo) {
  // Included in a function body: the body's lines stay, the header's go.
  Expansion X({{"void f() {", "/d/k.cu", 1},
               {"#line 1 \"/d/body.inc\""},
               {"  g();", "/d/body.inc", 1},
               {"#line 3 \"/d/k.cu\""},
               {"}", "/d/k.cu", 3}});
  SplitExpansion S = splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t");
  ASSERT_EQ(S.Files.size(), 1u);
  EXPECT_EQ(S.Files[0]->Text.text(), "  g();\n");
  EXPECT_EQ(S.Text, "P\nvoid f() {\n#line 1 \"/d/body.inc\"\n#include \"" +
                        S.Files[0]->Path + "\"\n#line 3 \"/d/k.cu\"\n}\n");
  auto Brace = S.Map.toInput(S.Text.size() - 2);
  ASSERT_TRUE(Brace);
  EXPECT_EQ(Brace->Line, 3u);
}

TEST(SplicedFilesTest, AQuotedIncludeBesideTheFileOpensItFromAnywhere) {
  TempDir T;
  std::string Own = T.write("src/k.cu", "");
  std::string Beside = T.write("src/util.h", "");
  Expansion X({{"#include \"util.h\" // beside k.cu", T.path("src/h.cuh"), 3},
               {"#include \"other.h\"", T.path("src/h.cuh"), 4},
               {"int a;", Own, 3}});
  SplitExpansion S = splitSplicedText(X.Text, 2, X.Map, Own, "/t");
  ASSERT_EQ(S.Files.size(), 1u);
  const SplicedFile &F = *S.Files[0];
  std::string Expected = "#include \"" + T.path("src/util.h") +
                         "\" // beside k.cu\n#include \"other.h\"\n";
  EXPECT_EQ(F.Text.text(), Expected);
  (void)Beside;
  // The directive and the comment after the name map as before; the name
  // written anew maps nowhere.
  EXPECT_EQ(F.toUser(1)->Col, 1u);
  EXPECT_FALSE(F.toUser(10));
  auto Comment = F.toUser(Expected.find("//"));
  ASSERT_TRUE(Comment);
  EXPECT_EQ(Comment->Col, 18u);
  auto Other = F.toUser(Expected.find("other"));
  ASSERT_TRUE(Other);
  EXPECT_EQ(Other->Line, 3u);
  EXPECT_EQ(Other->Col, 10u);
}

TEST(SplicedFilesTest, AnExpansionWithoutHeadersIsItself) {
  Expansion X({{"#line 1 \"/d/k.cu\""}, {"int a;", "/d/k.cu", 1}});
  SplitExpansion S = splitSplicedText(X.Text, 2, X.Map, "/d/k.cu", "/t");
  EXPECT_TRUE(S.Files.empty());
  EXPECT_EQ(S.Text, X.Text);
  ASSERT_EQ(S.Map.pieces().size(), 1u);
  EXPECT_EQ(S.Map.pieces()[0].OutBegin, X.Map.pieces()[0].OutBegin);
}

} // namespace
