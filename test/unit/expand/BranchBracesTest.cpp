//===- BranchBracesTest.cpp - When an 'if codegen' branch loses its braces ===//
#include "expand/BranchBraces.h"

#include <gtest/gtest.h>
#include <string>

using namespace metacu;

namespace {

struct Lexed {
  std::string Text;
  std::vector<Token> Toks;
  explicit Lexed(std::string T) : Text(std::move(T)) { Toks = lexRaw(Text); }
  /// The index of the \p Nth token spelled \p S.
  unsigned at(llvm::StringRef S, unsigned Nth = 0) const {
    for (unsigned I = 0; I < Toks.size(); ++I)
      if (Toks[I].Text == S && Nth-- == 0)
        return I;
    ADD_FAILURE() << "no token " << S.str();
    return 0;
  }
};

/// The names the branch whose '{' is the \p Nth declares, sorted; "?" when
/// it cannot be told.
std::string declared(llvm::StringRef Code, unsigned Nth = 0) {
  Lexed L(Code.str());
  unsigned Open = L.at("{", Nth);
  std::optional<llvm::StringSet<>> Names =
      declaredAtTopLevel(L.Toks, Open, Open + L.Toks[Open].Partner);
  if (!Names)
    return "?";
  std::vector<std::string> V;
  for (llvm::StringRef N : Names->keys())
    V.push_back(N.str());
  llvm::sort(V);
  std::string S;
  for (const std::string &N : V)
    S += (S.empty() ? "" : " ") + N;
  return S;
}

TEST(BranchBracesTest, StatementsDeclareNothing) {
  EXPECT_EQ(declared("{ out[i] = in[i] * 2; f(a + b); return; }"), "");
}

TEST(BranchBracesTest, DeclaratorsAreNamed) {
  EXPECT_EQ(declared("{ const float *__restrict__ q = p; int a = 1, b; }"),
            "a b q");
  EXPECT_EQ(declared("{ std::array<int, 2> arr; auto [x, y] = f(); }"),
            "arr x y");
  EXPECT_EQ(declared("{ int (*fp)(int); struct S { int m; } s; }"), "S fp s");
}

TEST(BranchBracesTest, ExpressionsDeclareNothing) {
  // Template arguments, products and initializers name what they use.
  EXPECT_EQ(declared("{ process<A, B>(x); y = a * b; t += c * d;"
                     " const T *q = (const T *)(p + n * s), *r = q + m; }"),
            "q r");
}

// ggml's fattn-tile kernels: 'copy<N>(&K_k[i], &src[j]);' kept the braces
// around its branch, whose scope changed nvcc's code. Parentheses with a
// ',' of their own are an argument list, no parenthesized declarator; one
// without may still be ('T (&r)[4];' declares r).
TEST(BranchBracesTest, AddressesOfArgumentsDeclareNothing) {
  EXPECT_EQ(declared("{ copy<N>(&K_k[i / (n * w)], &src[i * (m + c)]); }"),
            "");
  EXPECT_EQ(declared("{ T (&r)[4] = a; T (*p)(int, int); }"), "p r");
}

TEST(BranchBracesTest, NestedScopesAreNotTheBranchs) {
  EXPECT_EQ(declared("{ for (int i = 0; i < n; ++i) { int t = i; } "
                     "auto l = [&](int q) { return q; }; }"),
            "l");
}

TEST(BranchBracesTest, MacrosMayDeclareTheirArguments) {
  // 'DECLARE_TILE(tile, ...);' and 'SETUP;' may be declarations.
  EXPECT_EQ(declared("{ DECLARE_TILE(tile, 4 * n); SETUP; }"), "SETUP tile");
}

TEST(BranchBracesTest, EnumeratorsAndAnonymousUnionsLeak) {
  EXPECT_EQ(declared("{ enum { a, b }; }"), "?");
  EXPECT_EQ(declared("{ union { int i; float f; }; }"), "?");
  EXPECT_EQ(declared("{ { enum { a }; } }"), "");
}

TEST(BranchBracesTest, StatementPositions) {
  Lexed L("void f(bool c) { g(); if codegen (x) { } if (c) if codegen (y) { }"
          " l: if codegen (z) { } }");
  EXPECT_TRUE(beginsBlockStatement(L.Toks, L.at("if", 0)));
  EXPECT_FALSE(beginsBlockStatement(L.Toks, L.at("if", 2)));
  EXPECT_TRUE(beginsBlockStatement(L.Toks, L.at("if", 3)));
  Lexed E("void f() { else if codegen (x) { } do if codegen (x) { } }");
  EXPECT_FALSE(beginsBlockStatement(E.Toks, E.at("if", 0)));
  EXPECT_FALSE(beginsBlockStatement(E.Toks, E.at("if", 1)));
  // Labels of a switch, whatever their constant expression.
  Lexed S("void f(int c) { switch (c) { case 1: if codegen (x) { } break;"
          " case ns::E: if codegen (y) { } default: if codegen (z) { } }"
          " (void)(c ? 1 : 2); }");
  EXPECT_TRUE(beginsBlockStatement(S.Toks, S.at("if", 0)));
  EXPECT_TRUE(beginsBlockStatement(S.Toks, S.at("if", 1)));
  EXPECT_TRUE(beginsBlockStatement(S.Toks, S.at("if", 2)));
  EXPECT_FALSE(beginsBlockStatement(S.Toks, S.at("2")));
}

TEST(BranchBracesTest, DirectiveLinesAroundTheChainDoNotCount) {
  Lexed L("void f() { g();\n#ifdef A\nif codegen (x) { }\n#endif\n}\n");
  unsigned If = L.at("if");
  EXPECT_TRUE(beginsBlockStatement(L.Toks, If));
  EXPECT_TRUE(endsBlock(L.Toks, L.at("}", 0)));
  // Code of a region the preprocessor may keep is a statement after it.
  Lexed M("void f() { if codegen (x) { }\n#ifdef A\ng();\n#endif\n}\n");
  EXPECT_FALSE(endsBlock(M.Toks, M.at("}", 0)));
}

TEST(BranchBracesTest, DeclaredBeforeHoldsParametersAndHeads) {
  Lexed L("template <int N> __global__ void k(const float *in, int n) {"
          " float t = 0; for (int i = 0; i < n; ++i) { t += in[i]; }"
          " if (auto p = get()) { } g(t); use(t); X: ; }");
  llvm::StringSet<> B =
      declaredBefore(L.Toks, functionHeadBegin(L.Toks, L.at("{")), L.at("X"));
  for (const char *N : {"N", "in", "n", "t", "i", "p"})
    EXPECT_TRUE(B.contains(N)) << N;
  EXPECT_FALSE(B.contains("use"));
  EXPECT_EQ(functionHeadBegin(L.Toks, L.at("{")), L.at("template"));
}

} // namespace

TEST(BranchBracesTest, AChainAfterAnOrdinaryHeadIsItsBody) {
  Lexed Plain("for (int i = 0; i < n; ++i) if codegen (c) { f(); }");
  EXPECT_FALSE(beginsBlockStatement(Plain.Toks, Plain.at("if", 0)));
  Lexed Block("{ g(); if codegen (c) { f(); } }");
  EXPECT_TRUE(beginsBlockStatement(Block.Toks, Block.at("if", 0)));
}
