//===- TokensTest.cpp - Raw tokens with their brackets paired -------------===//
#include "support/Tokens.h"

#include <gtest/gtest.h>
#include <string>

using namespace metacu;

namespace {

/// The index of the \p Nth token spelled \p Text.
unsigned indexOf(const std::vector<Token> &T, llvm::StringRef Text,
                 unsigned Nth = 0) {
  for (unsigned I = 0; I < T.size(); ++I)
    if (T[I].Text == Text && Nth-- == 0)
      return I;
  ADD_FAILURE() << "no token '" << Text.str() << "'";
  return 0;
}

TEST(TokensTest, NestedBracketsPairBothWays) {
  std::vector<Token> T = lexRaw("f(a[1], {b}) [x];");
  unsigned Paren = indexOf(T, "("), Close = indexOf(T, ")");
  EXPECT_EQ(partnerOf(T, Paren), Close);
  EXPECT_EQ(partnerOf(T, Close), Paren);
  EXPECT_EQ(partnerOf(T, indexOf(T, "[")), indexOf(T, "]"));
  EXPECT_EQ(partnerOf(T, indexOf(T, "{")), indexOf(T, "}"));
  EXPECT_EQ(partnerOf(T, indexOf(T, "[", 1)), indexOf(T, "]", 1));
  EXPECT_EQ(skipGroup(T, Paren), Close + 1);
  // Other tokens pair with nothing.
  EXPECT_EQ(partnerOf(T, indexOf(T, "f")), std::nullopt);
  EXPECT_EQ(partnerOf(T, indexOf(T, ";")), std::nullopt);
}

TEST(TokensTest, AStrayClosingBracketClosesNothing) {
  std::vector<Token> T = lexRaw("( ] )");
  EXPECT_EQ(partnerOf(T, 0), 2u);
  EXPECT_EQ(partnerOf(T, 1), std::nullopt);
  // A closing bracket of the wrong kind leaves the open one open.
  std::vector<Token> U = lexRaw("( { ) }");
  EXPECT_EQ(partnerOf(U, 0), std::nullopt);
  EXPECT_EQ(partnerOf(U, 1), 3u);
  EXPECT_EQ(partnerOf(U, 2), std::nullopt);
}

TEST(TokensTest, UnclosedBracketHasNoPartnerAndItsGroupRunsToTheEnd) {
  std::vector<Token> T = lexRaw("f(a, (b);");
  EXPECT_EQ(partnerOf(T, 1), std::nullopt);
  EXPECT_EQ(skipGroup(T, 1), T.size());
  EXPECT_EQ(partnerOf(T, 4), 6u);
}

TEST(TokensTest, DirectiveLinesPairWithinThemselves) {
  std::vector<Token> T = lexRaw("int a[] = {\n"
                                "#if defined(X) && (Y\n"
                                "  1,\n"
                                "#endif\n"
                                "  2};\n");
  // The code's braces pair across the directive lines.
  EXPECT_EQ(partnerOf(T, indexOf(T, "{")), indexOf(T, "}"));
  // The directive's own parentheses pair on its line; its unclosed one
  // stays open and takes nothing from the code.
  unsigned Defined = indexOf(T, "(");
  EXPECT_TRUE(T[Defined].InDirective);
  EXPECT_EQ(partnerOf(T, Defined), indexOf(T, ")"));
  EXPECT_EQ(partnerOf(T, indexOf(T, "(", 1)), std::nullopt);
}

TEST(TokensTest, DirectiveBracketsDoNotCloseCodeBrackets) {
  std::vector<Token> T = lexRaw("f(\n#define P )\n1)\n");
  unsigned Open = indexOf(T, "(");
  EXPECT_EQ(partnerOf(T, Open), indexOf(T, ")", 1));
  EXPECT_EQ(partnerOf(T, indexOf(T, ")")), std::nullopt);
}

TEST(TokensTest, ASkippedRegionPairsWithinItself) {
  // The first branch is skipped: its '{' opens nothing the '}' closes.
  std::string Text = "f() {\n#if A\n if (x) {\n#else\n {\n#endif\n }\n}\n";
  unsigned Begin = Text.find(" if"), End = Text.find("#else");
  std::vector<Token> T = lexRaw(Text, {Range{Begin, End}});
  EXPECT_TRUE(T[indexOf(T, "{", 1)].Skipped);
  EXPECT_EQ(partnerOf(T, indexOf(T, "{", 1)), std::nullopt);
  EXPECT_EQ(partnerOf(T, indexOf(T, "{", 2)), indexOf(T, "}"));
  EXPECT_EQ(partnerOf(T, indexOf(T, "{")), indexOf(T, "}", 1));
  EXPECT_TRUE(bracketsCross(lexRaw(Text), {Range{Begin, End}}));
}

TEST(TokensTest, PartnersHoldInSlices) {
  std::vector<Token> T = lexRaw("x = g(h(1), 2);");
  llvm::ArrayRef<Token> Slice = llvm::ArrayRef<Token>(T).slice(4, 4);
  // "h(1)" inside "g(...)": the slice starts at 'h'.
  ASSERT_EQ(Slice[0].Text, "h");
  EXPECT_EQ(partnerOf(Slice, 1), 3u);
  // The partner of g's '(' lies outside a slice that starts at it.
  llvm::ArrayRef<Token> Head = llvm::ArrayRef<Token>(T).slice(3, 4);
  EXPECT_EQ(partnerOf(Head, 0), std::nullopt);
  EXPECT_EQ(skipGroup(Head, 0), Head.size());
}

TEST(TokensTest, SkipAnglesClosesTemplateArgumentLists) {
  std::vector<Token> T = lexRaw("A<B<int>, C> x;");
  EXPECT_EQ(T[skipAngles(T, 1) - 1].Text, ">");
  EXPECT_EQ(T[skipAngles(T, 1)].Text, "x");
  // '>>' closes two lists.
  std::vector<Token> U = lexRaw("A<B<int>> y;");
  EXPECT_EQ(U[skipAngles(U, 1)].Text, "y");
  EXPECT_EQ(U[skipAngles(U, 3)].Text, "y");
  // A '>' inside parentheses compares.
  std::vector<Token> V = lexRaw("A<(a > b), c> z;");
  EXPECT_EQ(V[skipAngles(V, 1)].Text, "z");
  // Unclosed: to the end.
  std::vector<Token> W = lexRaw("A<int");
  EXPECT_EQ(skipAngles(W, 1), W.size());
}

TEST(TokensTest, EnclosingOpenIsTheInnermostOpenBracket) {
  std::vector<Token> T = lexRaw("f(a[1], {b}, @ c)");
  unsigned At = indexOf(T, "@");
  EXPECT_EQ(enclosingOpen(T, At), indexOf(T, "("));
  EXPECT_EQ(enclosingOpen(T, indexOf(T, "b")), indexOf(T, "{"));
  EXPECT_EQ(enclosingOpen(T, indexOf(T, "f")), std::nullopt);
  // Unclosed brackets enclose what follows them.
  std::vector<Token> U = lexRaw("g(x, [y");
  EXPECT_EQ(enclosingOpen(U, indexOf(U, "y")), indexOf(U, "["));
}

TEST(TokensTest, DeepNestingPairsInLinearTime) {
  // A quadratic pairing would take minutes here.
  const unsigned N = 200000;
  std::string S = std::string(N, '(') + "x" + std::string(N, ')');
  std::vector<Token> T = lexRaw(S);
  ASSERT_EQ(T.size(), 2 * N + 1);
  EXPECT_EQ(partnerOf(T, 0), 2 * N);
  EXPECT_EQ(partnerOf(T, N - 1), N + 1);
}

} // namespace

TEST(TokensTest, AnUnterminatedBlockCommentIsFoundAfterTheOffset) {
  std::string Text = "#if 0\n\"/*\" // /*\n/* closed */ /* never closed\n";
  std::optional<unsigned> At = unterminatedBlockComment(Text, 0);
  ASSERT_TRUE(At.has_value());
  EXPECT_EQ(*At, Text.find("/* never"));
  EXPECT_FALSE(unterminatedBlockComment("/* closed */\nint x;\n", 0));
  // Before the offset, a comment is not looked at.
  std::string Closed = "/* x */ int y; /* z";
  EXPECT_FALSE(unterminatedBlockComment(Closed, Closed.size()));
}
