//===- ScanTest.cpp - Finding the meta constructs of the input ------------===//
#include "expand/Scan.h"
#include "support/Diagnostic.h"

#include <gtest/gtest.h>
#include <memory>

using namespace metacu;

namespace {

/// A scanned input; keeps the file alive for the tokens that point into it.
struct Scanned {
  std::unique_ptr<SourceFile> File;
  ScanResult R;
  std::vector<Node> &nodes() { return R.Nodes; }
  std::string text(Range X) const {
    return File->text().slice(X.Begin, X.End).str();
  }
  unsigned offsetOf(llvm::StringRef Needle, unsigned Nth = 0) const {
    size_t P = File->text().find(Needle);
    while (Nth-- && P != llvm::StringRef::npos)
      P = File->text().find(Needle, P + 1);
    EXPECT_NE(P, llvm::StringRef::npos) << Needle.str();
    return P;
  }
};

Scanned scanOk(std::string Code) {
  Scanned S;
  S.File = std::make_unique<SourceFile>("s.cu", std::move(Code));
  auto R = scan(*S.File);
  if (!R)
    ADD_FAILURE() << llvm::toString(R.takeError());
  else
    S.R = std::move(*R);
  return S;
}

/// Scans code that must fail as a whole; returns the error's offset and text.
std::pair<unsigned, std::string> scanError(std::string Code) {
  SourceFile F("s.cu", std::move(Code));
  auto R = scan(F);
  if (R) {
    ADD_FAILURE() << "scan should fail";
    return {~0u, ""};
  }
  std::pair<unsigned, std::string> Out{~0u, ""};
  llvm::handleAllErrors(R.takeError(), [&](const LocatedError &E) {
    Out = {E.offset(), E.text()};
  });
  return Out;
}

std::vector<NodeKind> kinds(const std::vector<Node> &Nodes) {
  std::vector<NodeKind> K;
  for (const Node &N : Nodes)
    K.push_back(N.Kind);
  return K;
}

using NK = NodeKind;
using Kinds = std::vector<NodeKind>;

TEST(ScanTest, PlainCodeIsOneTextNodeCoveringTheFile) {
  Scanned S = scanOk("int x;\nint y = x + 1;\n");
  ASSERT_EQ(S.nodes().size(), 1u);
  EXPECT_EQ(S.nodes()[0].Kind, NK::Text);
  EXPECT_EQ(S.nodes()[0].Whole.Begin, 0u);
  EXPECT_EQ(S.nodes()[0].Whole.End, S.File->size());
}

TEST(ScanTest, MetaStatementSplitsTheText) {
  Scanned S = scanOk("int x; @meta int y = 2;\nint z;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Whole), "int x; ");
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "@meta int y = 2;");
  EXPECT_EQ(S.text(S.nodes()[1].Head), "int y = 2;");
  EXPECT_EQ(S.text(S.nodes()[2].Whole), "\nint z;\n");
  // Token ranges agree with byte ranges.
  const Node &M = S.nodes()[1];
  EXPECT_EQ(S.R.Tokens[M.TokBegin].Offset, M.Whole.Begin);
  EXPECT_EQ(S.R.Tokens[M.TokEnd - 1].end(), M.Whole.End);
  EXPECT_EQ(S.nodes()[2].TokBegin, M.TokEnd);
}

TEST(ScanTest, MetaFunctionDefinitionEndsAtItsClosingBrace) {
  Scanned S = scanOk("@meta int sq(int v) { if (v) { return v * v; } "
                     "return 0; }\nint after;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Head),
            "int sq(int v) { if (v) { return v * v; } return 0; }");
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "\nint after;\n");
}

TEST(ScanTest, MetaLambdaEndsAtTheSemicolon) {
  Scanned S = scanOk("@meta auto f = [](int a) { return a + 1; };\nint b;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Head), "auto f = [](int a) { return a + 1; };");
}

TEST(ScanTest, MetaStructAndEnumDeclarationsEndAtTheSemicolon) {
  Scanned S = scanOk("@meta struct cfg { int f() { return 1; } int a; };\n"
                     "@meta enum class mode { a, b = 3, c };\n"
                     "@meta std::vector<int> v{1, 2};\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Stmt, NK::Text, NK::Stmt, NK::Text,
                                     NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Head),
            "struct cfg { int f() { return 1; } int a; };");
  EXPECT_EQ(S.text(S.nodes()[2].Head), "enum class mode { a, b = 3, c };");
  EXPECT_EQ(S.text(S.nodes()[4].Head), "std::vector<int> v{1, 2};");
}

TEST(ScanTest, MetaControlStatementsAreOpaqueStatements) {
  Scanned S = scanOk("@meta if (a) { x(); } else y();\n"
                     "@meta do { --n; } while (n > 0);\n"
                     "@meta try { f(); } catch (...) { g(); }\n");
  ASSERT_EQ(kinds(S.nodes()),
            (Kinds{NK::If, NK::Text, NK::Stmt, NK::Text, NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[2].Head), "do { --n; } while (n > 0);");
  EXPECT_EQ(S.text(S.nodes()[4].Head), "try { f(); } catch (...) { g(); }");
}

TEST(ScanTest, AtSignsInCommentsAndLiteralsAreNotScanned) {
  Scanned S = scanOk("// @meta int a = 1;\n"
                     "/* @meta for (;;) {} @(x) */\n"
                     "const char *s = \"@meta int b;\";\n"
                     "char c = '@';\n"
                     "const char *r = R\"(@meta if (x) \" )\";\n"
                     "const char *d = R\"xy(@(y) )\" @meta )xy\";\n"
                     "int z;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text}));
}

TEST(ScanTest, ConstructAfterARawStringIsFound) {
  Scanned S = scanOk("auto r = R\"(\n@meta int q = 0;\n)\";\n"
                     "@meta int real = 1;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[1].Head), "int real = 1;");
}

TEST(ScanTest, LineContinuationsInsideAMetaStatement) {
  Scanned S = scanOk("@meta int a = \\\n  1 + \\\n  2;\nint b;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Head), "int a = \\\n  1 + \\\n  2;");
}

TEST(ScanTest, LineContinuationInsideTheMetaKeyword) {
  // After line splicing (translation phase 2) this reads '@meta int a = 1;'.
  Scanned S = scanOk("@me\\\nta int a = 1;\nint b;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Stmt, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Head), "int a = 1;");
}

TEST(ScanTest, LineContinuationExtendsAPreprocessorDirective) {
  // The '@' is still part of the #define: text here, for the macro's
  // expansion (expand/MetaMacros.h), and of an #if: an error.
  EXPECT_EQ(kinds(scanOk("#define M(x) x \\\n  @meta int y;\n").nodes()),
            (Kinds{NK::Text}));
  auto [Offset, Msg] = scanError("#if M \\\n  @(y)\n#endif\n");
  EXPECT_EQ(Offset, 10u);
  EXPECT_NE(Msg.find("preprocessor directive"), std::string::npos) << Msg;
  // Without the backslash the next line is ordinary code.
  Scanned S = scanOk("#define M(x) x\n@meta int y;\n");
  EXPECT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Stmt, NK::Text}));
}

TEST(ScanTest, DigraphsAreBracesAndBrackets) {
  Scanned S = scanOk("void f(int *x) <%\n"
                     "  @meta for (int i = 0; i < 2; ++i) <% x<:i:> = 0; %>\n"
                     "%>\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::For, NK::Text}));
  const Node &F = S.nodes()[1];
  ASSERT_EQ(F.Branches.size(), 1u);
  EXPECT_TRUE(F.Branches[0].Braced);
  EXPECT_EQ(S.text(F.Branches[0].Body), "<% x<:i:> = 0; %>");
  EXPECT_EQ(S.text(S.nodes()[2].Whole), "\n%>\n");
}

TEST(ScanTest, DigraphHashStartsADirective) {
  auto [Offset, Msg] = scanError("%:if @(1)\n#endif\n");
  EXPECT_EQ(Offset, 5u);
  EXPECT_NE(Msg.find("preprocessor directive"), std::string::npos) << Msg;
}

TEST(ScanTest, AtSignInAConditionIsAnError) {
  auto [Offset, Msg] = scanError("int a;\n#if @(N)\n#endif\n");
  EXPECT_EQ(Offset, 11u);
  EXPECT_TRUE(llvm::StringRef(Msg).starts_with(
      "meta constructs cannot appear inside preprocessor directives other "
      "than #define: "))
      << Msg;
}

TEST(ScanTest, MetaConstructsInADefineAreLeftToTheMacroExpansion) {
  // The body is text here; expand/MetaMacros expands it at each use.
  Scanned S = scanOk(
      "#define ALL(s) if codegen (__nvvm_arch == nvvm_arch_t::sm_80) { s; }\n"
      "#define N @meta int n = 1;\n");
  EXPECT_EQ(kinds(S.nodes()), (Kinds{NK::Text}));
}

TEST(ScanTest, ClassicMetaForWithBracedBody) {
  Scanned S = scanOk("@meta for (int i = 0; i < 4; ++i) { a[i] = 0; }\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Node &F = S.nodes()[0];
  EXPECT_EQ(S.text(F.Head), "int i = 0; i < 4; ++i");
  EXPECT_EQ(S.text(F.Whole), "@meta for (int i = 0; i < 4; ++i) { a[i] = 0; }");
  ASSERT_EQ(F.Branches.size(), 1u);
  const Branch &B = F.Branches[0];
  EXPECT_TRUE(B.Braced);
  EXPECT_EQ(S.text(B.Body), "{ a[i] = 0; }");
  // The body's nodes cover the inside of the braces.
  ASSERT_EQ(kinds(B.Nodes), (Kinds{NK::Text}));
  EXPECT_EQ(S.text(B.Nodes[0].Whole), " a[i] = 0; ");
}

TEST(ScanTest, RangedMetaForWithUnbracedBody) {
  Scanned S = scanOk("@meta for (auto [k, v] : table)\n  use(k, v);\nint z;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Node &F = S.nodes()[0];
  EXPECT_EQ(S.text(F.Head), "auto [k, v] : table");
  EXPECT_FALSE(F.Branches[0].Braced);
  EXPECT_EQ(S.text(F.Branches[0].Body), "use(k, v);");
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "\nint z;\n");
}

TEST(ScanTest, MetaForEnumAndWhile) {
  Scanned S = scanOk("@meta for enum (auto e : mode_t) f(e);\n"
                     "@meta while (n < 3) { g(); }\n");
  ASSERT_EQ(kinds(S.nodes()),
            (Kinds{NK::ForEnum, NK::Text, NK::While, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Head), "auto e : mode_t");
  EXPECT_EQ(S.text(S.nodes()[0].Branches[0].Body), "f(e);");
  EXPECT_EQ(S.text(S.nodes()[2].Head), "n < 3");
  EXPECT_EQ(S.text(S.nodes()[2].Branches[0].Body), "{ g(); }");
}

TEST(ScanTest, MetaIfElseIfElseChain) {
  Scanned S = scanOk("@meta if (a) x();\n"
                     "else if (b) { y(); }\n"
                     "else @meta if (c) z();\n"
                     "else { w(); }\n"
                     "int after;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::If, NK::Text}));
  const Node &N = S.nodes()[0];
  ASSERT_EQ(N.Branches.size(), 4u);
  EXPECT_EQ(S.text(N.Head), "a");
  EXPECT_EQ(S.text(N.Branches[0].Cond), "a");
  EXPECT_EQ(S.text(N.Branches[0].Body), "x();");
  EXPECT_EQ(S.text(N.Branches[1].Cond), "b");
  EXPECT_EQ(S.text(N.Branches[1].Body), "{ y(); }");
  EXPECT_TRUE(N.Branches[1].Braced);
  EXPECT_EQ(S.text(N.Branches[2].Cond), "c");
  EXPECT_TRUE(N.Branches[3].IsElse);
  EXPECT_TRUE(N.Branches[3].Cond.empty());
  EXPECT_EQ(S.text(N.Branches[3].Body), "{ w(); }");
  for (int I = 0; I < 3; ++I)
    EXPECT_FALSE(N.Branches[I].IsElse) << I;
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "\nint after;\n");
}

TEST(ScanTest, MetaIfWithoutElseEndsAfterItsBody) {
  Scanned S = scanOk("@meta if (a) x(); y();\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::If, NK::Text}));
  EXPECT_EQ(S.nodes()[0].Branches.size(), 1u);
  EXPECT_EQ(S.text(S.nodes()[1].Whole), " y();\n");
}

TEST(ScanTest, CodegenIfChainWithElse) {
  Scanned S =
      scanOk("void f() {\n"
             "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { a(); }\n"
             "  else if codegen (u > 2) b();\n"
             "  else { c(); }\n"
             "}\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Codegen, NK::Text}));
  const Node &N = S.nodes()[1];
  EXPECT_EQ(S.text(N.Whole).substr(0, 11), "if codegen ");
  ASSERT_EQ(N.Branches.size(), 3u);
  EXPECT_EQ(S.text(N.Branches[0].Cond), "__nvvm_arch >= nvvm_arch_t::sm_80");
  EXPECT_EQ(S.text(N.Branches[1].Cond), "u > 2");
  EXPECT_EQ(S.text(N.Branches[1].Body), "b();");
  EXPECT_TRUE(N.Branches[2].IsElse);
  EXPECT_EQ(S.text(N.Branches[2].Body), "{ c(); }");
  EXPECT_EQ(S.text(S.nodes()[2].Whole), "\n}\n");
}

TEST(ScanTest, UsingCodegenIfIsACodegenChainFromTheUsing) {
  Scanned S = scanOk("void f() {\n"
                     "  using if codegen (c) { int *p = a; } else int *p;\n"
                     "  using T = int; g(p);\n"
                     "}\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Codegen, NK::Text}));
  const Node &N = S.nodes()[1];
  EXPECT_TRUE(N.Using);
  EXPECT_EQ(N.Whole.Begin, S.offsetOf("using if"));
  ASSERT_EQ(N.Branches.size(), 2u);
  EXPECT_EQ(S.text(N.Branches[0].Cond), "c");
  EXPECT_EQ(S.text(N.Branches[1].Body), "int *p;");
  // An ordinary 'using' is ordinary code, and a plain chain no 'using' one.
  Scanned P = scanOk("void f() { using T = int; if codegen (c) a(); }\n");
  ASSERT_EQ(kinds(P.nodes()), (Kinds{NK::Text, NK::Codegen, NK::Text}));
  EXPECT_FALSE(P.nodes()[1].Using);
  // Where no statement can begin, the error is at the 'using'.
  Scanned M = scanOk("void f() { int v = using if codegen (c) 1; }\n");
  ASSERT_GE(M.nodes().size(), 2u);
  EXPECT_EQ(M.nodes()[1].Kind, NK::Malformed);
  EXPECT_EQ(M.nodes()[1].ErrorOffset, M.offsetOf("using if"));
}

TEST(ScanTest, OrdinaryElseIfEndsACodegenChain) {
  // 'else if (...)' without 'codegen' is the final else, holding an
  // ordinary if statement.
  Scanned S = scanOk("void f() { if codegen (c) a(); else if (d) b(); "
                     "else e(); g(); }\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Codegen, NK::Text}));
  const Node &N = S.nodes()[1];
  ASSERT_EQ(N.Branches.size(), 2u);
  EXPECT_TRUE(N.Branches[1].IsElse);
  EXPECT_EQ(S.text(N.Branches[1].Body), "if (d) b(); else e();");
  EXPECT_EQ(S.text(S.nodes()[2].Whole), " g(); }\n");
}

TEST(ScanTest, IfWithoutCodegenIsOrdinaryCode) {
  Scanned S = scanOk("void f() { if (codegen) a(); }\n");
  EXPECT_EQ(kinds(S.nodes()), (Kinds{NK::Text}));
}

// No C++ has 'if' before a name: 'if codegen' without its '(' is a
// malformed construct (an error where the preprocessor keeps it), not
// ordinary code for nvcc.
TEST(ScanTest, CodegenWithoutParenthesisIsMalformed) {
  Scanned S = scanOk("void f() { if codegen; }\n");
  EXPECT_EQ(kinds(S.nodes()), (Kinds{NK::Text, NK::Malformed, NK::Text}));
}

// 'if codegen' is a statement; where none can begin, its branches would
// replace part of an expression or declaration.
TEST(ScanTest, CodegenIfWhereAStatementCannotBeginIsMalformed) {
  for (const char *Code :
       {"void f() { y = y if codegen (true); }\n",
        "void f() { return 1 if codegen (true) { return 2; } }\n",
        "void f() { P p = {\"x\" if codegen (true), 1}; }\n",
        "void f() { P p = {\"x\"if codegen (true), 1}; }\n",
        "void f() { y = 1if codegen (true); }\n",
        "void f() { y = c ? 1 : if codegen (true) {} }\n",
        "void f() { g(@(1)) if codegen (true) {} }\n",
        "void f() { g(1, if codegen (true) {}); }\n"}) {
    Scanned S = scanOk(Code);
    const Node *M = nullptr;
    for (const Node &N : S.nodes())
      if (N.Kind == NK::Malformed)
        M = &N;
    ASSERT_NE(M, nullptr) << Code;
    EXPECT_NE(M->Error.find("it can only begin one, not continue an "
                            "expression or declaration"),
              std::string::npos)
        << Code << ": " << M->Error;
    EXPECT_EQ(M->ErrorOffset, S.offsetOf("if codegen")) << Code;
  }
}

TEST(ScanTest, CodegenIfBeginsAStatementAfterEachKindOfBoundary) {
  for (const char *Code :
       {"void f() { x; if codegen (true) {} }\n",
        "void f() { {} if codegen (true) {} }\n",
        "void f() { if (c) if codegen (true) {} }\n",
        "void f() { if constexpr (c) if codegen (true) {} }\n",
        "void f() { for (;;) if codegen (true) {} }\n",
        "void f() { while (c) if codegen (true) {} }\n",
        "void f() { if (c) x; else if codegen (true) {} }\n",
        "void f() { do if codegen (true) {} while (0); }\n",
        "int t[] = {1, if codegen (true) {2,} };\n",
        "void f() { switch (c) { case 1: if codegen (true) {} } }\n",
        "void f() { l: if codegen (true) {} }\n",
        "void f() { [[likely]] if codegen (true) {} }\n",
        "void f() { @meta for (int i = 0; i < 2; ++i) if codegen (true) {} }\n",
        "void f() { x;\n#if 1\n  if codegen (true) {}\n#endif\n}\n"}) {
    Scanned S = scanOk(Code);
    bool Found = false;
    walkNodes(S.nodes(), [&](const Node &N) {
      EXPECT_NE(N.Kind, NK::Malformed) << Code << ": " << N.Error;
      Found |= N.Kind == NK::Codegen;
      return WalkNext::Children;
    });
    EXPECT_TRUE(Found) << Code;
  }
}

TEST(ScanTest, SpliceKeepsItsExpression) {
  Scanned S = scanOk("int @(\"load_\" + std::to_string(i))(int x) "
                     "{ return x * @(f(1, (2))); }\n");
  ASSERT_EQ(kinds(S.nodes()),
            (Kinds{NK::Text, NK::Splice, NK::Text, NK::Splice, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[1].Head), "\"load_\" + std::to_string(i)");
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "@(\"load_\" + std::to_string(i))");
  EXPECT_EQ(S.text(S.nodes()[3].Head), "f(1, (2))");
  EXPECT_EQ(S.text(S.nodes()[2].Whole), "(int x) { return x * ");
}

TEST(ScanTest, NestedConstructsInBracedBodies) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i) {\n"
                     "  @meta int sq = i * i;\n"
                     "  @meta if (sq > 0) { x[@(sq)] = 1; } else { y(); }\n"
                     "}\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Branch &Body = S.nodes()[0].Branches[0];
  ASSERT_EQ(kinds(Body.Nodes),
            (Kinds{NK::Text, NK::Stmt, NK::Text, NK::If, NK::Text}));
  const Node &If = Body.Nodes[3];
  ASSERT_EQ(If.Branches.size(), 2u);
  ASSERT_EQ(kinds(If.Branches[0].Nodes),
            (Kinds{NK::Text, NK::Splice, NK::Text}));
  EXPECT_EQ(S.text(If.Branches[0].Nodes[1].Head), "sq");
}

TEST(ScanTest, NestedConstructsInUnbracedBodies) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i)\n"
                     "  @meta for (int j = 0; j < 2; ++j)\n"
                     "    x[@(i)][@(j)] = 0;\n"
                     "int after;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Branch &Outer = S.nodes()[0].Branches[0];
  EXPECT_FALSE(Outer.Braced);
  ASSERT_EQ(kinds(Outer.Nodes), (Kinds{NK::For}));
  const Branch &Inner = Outer.Nodes[0].Branches[0];
  EXPECT_EQ(S.text(Inner.Body), "x[@(i)][@(j)] = 0;");
  EXPECT_EQ(kinds(Inner.Nodes),
            (Kinds{NK::Text, NK::Splice, NK::Text, NK::Splice, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "\nint after;\n");
}

TEST(ScanTest, UnbracedBodyThatIsAnOrdinaryIfElse) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i)\n"
                     "  if (p) @meta if (i) a(); else b();\n"
                     "  else c();\n"
                     "int after;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Branch &Body = S.nodes()[0].Branches[0];
  EXPECT_EQ(S.text(Body.Body),
            "if (p) @meta if (i) a(); else b();\n  else c();");
  ASSERT_EQ(kinds(Body.Nodes), (Kinds{NK::Text, NK::If, NK::Text}));
  // The meta if takes the first 'else'; the second belongs to 'if (p)'.
  EXPECT_EQ(Body.Nodes[1].Branches.size(), 2u);
}

TEST(ScanTest, UnbracedBodyStartingWithASplice) {
  // The body is the whole statement '@(name)(x);', not just the splice.
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i)\n"
                     "  @(\"load_\" + std::to_string(i))(x);\n"
                     "int after;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Branch &Body = S.nodes()[0].Branches[0];
  EXPECT_EQ(S.text(Body.Body), "@(\"load_\" + std::to_string(i))(x);");
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "\nint after;\n");
}

TEST(ScanTest, UnbracedBodiesOfOrdinaryLoopsAndSwitch) {
  Scanned S = scanOk("@meta if (a) for (;;) while (x) do y(); while (z);\n"
                     "@meta if (b) switch (v) { case 1: break; }\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::If, NK::Text, NK::If, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Branches[0].Body),
            "for (;;) while (x) do y(); while (z);");
  EXPECT_EQ(S.text(S.nodes()[2].Branches[0].Body),
            "switch (v) { case 1: break; }");
}

TEST(ScanTest, ConstructsInsideOrdinaryStatementsAndInitializers) {
  Scanned S =
      scanOk("int a[] = { @meta for (int i = 0; i < 3; ++i) { @(i), } };\n"
             "void f() { g(@(n), 1); }\n");
  ASSERT_EQ(kinds(S.nodes()),
            (Kinds{NK::Text, NK::For, NK::Text, NK::Splice, NK::Text}));
  const Branch &B = S.nodes()[1].Branches[0];
  EXPECT_EQ(S.text(B.Body), "{ @(i), }");
  EXPECT_EQ(kinds(B.Nodes), (Kinds{NK::Text, NK::Splice, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[2].Whole), " };\nvoid f() { g(");
}

Node malformedAt(Scanned &S, size_t I) {
  if (I >= S.nodes().size()) {
    ADD_FAILURE() << "no node " << I;
    return Node();
  }
  EXPECT_EQ(S.nodes()[I].Kind, NK::Malformed);
  return S.nodes()[I];
}

TEST(ScanTest, UnterminatedParenthesisIsMalformedAndScanningGoesOn) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i { x(); }\n"
                     "int y = @(1);\n");
  // Scanning resumes after the '@' and finds the splice.
  ASSERT_EQ(kinds(S.nodes()),
            (Kinds{NK::Malformed, NK::Text, NK::Splice, NK::Text}));
  Node M = malformedAt(S, 0);
  // Only the '@' is taken; the rest is text.
  EXPECT_EQ(S.text(M.Whole), "@");
  // The parenthesis runs into the next '@', which cannot be meta code: the
  // error points at the parenthesis that is never closed.
  EXPECT_EQ(M.ErrorOffset, S.offsetOf("("));
  EXPECT_EQ(M.Error, "expected ')' to match this '('");

  Scanned T = scanOk("@meta for (int i = 0; i < 2; ++i { x(); }\n"
                     "int y = 1;\n");
  M = malformedAt(T, 0);
  EXPECT_EQ(M.ErrorOffset, T.offsetOf("("));
  EXPECT_EQ(M.Error, "expected ')' to match this '('");
  EXPECT_EQ(kinds(T.nodes()), (Kinds{NK::Malformed, NK::Text}));
}

TEST(ScanTest, UnterminatedMetaStatement) {
  Scanned S = scanOk("int y;\n@meta int x = 1\n");
  Node M = malformedAt(S, 1);
  EXPECT_EQ(M.ErrorOffset, S.offsetOf("int x"));
  EXPECT_EQ(M.Error, "expected ';' at the end of this meta statement");
}

TEST(ScanTest, UnterminatedBody) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i) {\n  x();\n");
  Node M = malformedAt(S, 0);
  EXPECT_EQ(M.ErrorOffset, S.offsetOf("{"));
  EXPECT_EQ(M.Error, "expected '}' to match this '{'");
}

TEST(ScanTest, MismatchedBracketInABody) {
  Scanned S = scanOk("@meta while (k) { x(]; }\n");
  Node M = malformedAt(S, 0);
  EXPECT_EQ(M.ErrorOffset, S.offsetOf("]"));
  EXPECT_EQ(M.Error, "unbalanced ']': expected ')' to match the '(' at line 1");
}

TEST(ScanTest, MissingBodyAtEndOfFile) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i)");
  Node M = malformedAt(S, 0);
  EXPECT_EQ(M.ErrorOffset, S.File->size());
  EXPECT_EQ(M.Error, "expected a statement before end of file");
}

TEST(ScanTest, MalformedHeadsOfEveryConstruct) {
  Scanned S = scanOk("@ foo;\n@()\n@meta\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Malformed, NK::Text, NK::Malformed,
                                     NK::Text, NK::Malformed, NK::Text}));
  EXPECT_EQ(S.nodes()[0].Error, "expected 'meta' or '(' after '@'");
  EXPECT_EQ(S.nodes()[0].ErrorOffset, 0u);
  EXPECT_EQ(S.nodes()[2].Error, "empty splice '@()'");
  EXPECT_EQ(S.nodes()[2].ErrorOffset, 7u);
  EXPECT_EQ(S.nodes()[4].Error, "expected a statement after '@meta'");
  EXPECT_EQ(S.nodes()[4].ErrorOffset, 11u);
}

TEST(ScanTest, MetaForWithoutParenthesis) {
  Scanned S = scanOk("@meta for x\n");
  Node M = malformedAt(S, 0);
  EXPECT_EQ(M.Error, "expected '(' after '@meta for'");
  EXPECT_EQ(M.ErrorOffset, S.offsetOf("x"));
}

TEST(ScanTest, ConstructInsideMetaCodeIsMalformed) {
  Scanned S = scanOk("@meta int x = @(1);\n");
  Node M = malformedAt(S, 0);
  EXPECT_EQ(M.ErrorOffset, S.offsetOf("@", 1));
  EXPECT_EQ(M.Error, "meta constructs cannot appear inside meta code");
  // Scanning resumed after the first '@' and found the second.
  EXPECT_EQ(kinds(S.nodes()),
            (Kinds{NK::Malformed, NK::Text, NK::Splice, NK::Text}));
}

TEST(ScanTest, MalformedConstructInABodyStaysInsideTheBody) {
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i) { @meta int y }\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  const Branch &B = S.nodes()[0].Branches[0];
  ASSERT_EQ(kinds(B.Nodes), (Kinds{NK::Text, NK::Malformed, NK::Text}));
  EXPECT_EQ(B.Nodes[1].ErrorOffset, S.offsetOf("}"));
  EXPECT_EQ(B.Nodes[1].Error, "unbalanced '}'");
}

TEST(ScanTest, MalformedBodyMakesTheEnclosingConstructMalformed) {
  Scanned S = scanOk("@meta if (a) { x(); ) }\nint z;\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::Malformed, NK::Text}));
  EXPECT_EQ(S.nodes()[0].ErrorOffset, S.offsetOf(")", 2));
  EXPECT_EQ(S.nodes()[0].Error,
            "unbalanced ')': expected '}' to match the '{' at line 1");
}

TEST(ScanTest, TokenAtFindsTheFirstTokenAtOrAfterAnOffset) {
  Scanned S = scanOk("int  x;");
  ASSERT_EQ(S.R.Tokens.size(), 3u);
  EXPECT_EQ(S.R.tokenAt(0), 0u);
  EXPECT_EQ(S.R.tokenAt(1), 1u);
  EXPECT_EQ(S.R.tokenAt(3), 1u);
  EXPECT_EQ(S.R.tokenAt(5), 1u);
  EXPECT_EQ(S.R.tokenAt(6), 2u);
  EXPECT_EQ(S.R.tokenAt(7), 3u);
  EXPECT_EQ(S.R.tokenAt(100), 3u);
}

TEST(ScanTest, TokensKnowLineStartsAndDirectives) {
  Scanned S = scanOk("int a;\n  #define B 1\nint c;\n");
  const auto &T = S.R.Tokens;
  ASSERT_EQ(T.size(), 10u);
  EXPECT_TRUE(T[0].StartOfLine);
  EXPECT_FALSE(T[1].StartOfLine);
  EXPECT_TRUE(T[3].is(clang::tok::hash));
  EXPECT_TRUE(T[3].StartOfLine);
  for (int I = 3; I < 7; ++I)
    EXPECT_TRUE(T[I].InDirective) << I;
  EXPECT_FALSE(T[7].InDirective);
  EXPECT_TRUE(T[7].StartOfLine);
  EXPECT_TRUE(T[4].isIdent("define"));
  EXPECT_EQ(T[5].Text, "B");
}

} // namespace

namespace {

/// \p N unbraced '@meta for' lines, each the body of the one before.
std::string nestedLoops(unsigned N) {
  std::string S = "void f(int* x) {\n";
  for (unsigned I = 0; I < N; ++I)
    S += "@meta for (int i" + std::to_string(I) + " = 0; i" +
         std::to_string(I) + " < 1; ++i" + std::to_string(I) + ")\n";
  return S + "x[0] = 1;\n}\n";
}

TEST(ScanTest, DeeplyNestedUnbracedLoopsFormOneChain) {
  // Each level used to be parsed twice per level above it: 2^200 here.
  Scanned S = scanOk(nestedLoops(200));
  unsigned Depth = 0;
  const std::vector<Node> *Level = &S.nodes();
  while (true) {
    auto Loop = llvm::find_if(
        *Level, [](const Node &N) { return N.Kind == NodeKind::For; });
    if (Loop == Level->end())
      break;
    ++Depth;
    ASSERT_EQ(Loop->Branches.size(), 1u);
    Level = &Loop->Branches[0].Nodes;
  }
  EXPECT_EQ(Depth, 200u);
  EXPECT_EQ(kinds(*Level), (Kinds{NK::Text}));
}

TEST(ScanTest, NestingPastTheLimitIsAnErrorAtTheFirstLevelPastIt) {
  std::string Code =
      "void f() {\n" + std::string(300, '(') + std::string(300, ')') + ";\n}\n";
  auto [Offset, Msg] = scanError(Code);
  // '{' is level 1; the 256th '(' is the 257th level.
  EXPECT_EQ(Offset, Code.find("((") + 255);
  EXPECT_NE(Msg.find("nesting too deep"), std::string::npos) << Msg;
}

TEST(ScanTest, NestedConstructsCountTowardTheLimit) {
  // The construct past the limit does not parse; like any malformed
  // construct it is an error only if the preprocessor keeps it (Check).
  std::string Code = nestedLoops(300);
  Scanned S = scanOk(Code);
  const Node *Bad = nullptr;
  walkNodes(S.nodes(), [&](const Node &N) {
    if (N.Kind != NodeKind::Malformed)
      return WalkNext::Children;
    Bad = &N;
    return WalkNext::Stop;
  });
  ASSERT_TRUE(Bad);
  EXPECT_NE(Bad->Error.find("nesting too deep"), std::string::npos)
      << Bad->Error;
  EXPECT_LT(Bad->ErrorOffset, Code.find("x[0]"));
}

TEST(ScanTest, NestingJustUnderTheLimitIsFine) {
  std::string Code = "void f() {\n" + std::string(254, '(') + "0" +
                     std::string(254, ')') + ";\n}\n";
  Scanned S = scanOk(Code);
  EXPECT_EQ(kinds(S.nodes()), (Kinds{NK::Text}));
}

} // namespace

TEST(ScanTest, AnUnbracedBodyAfterADirectiveLineEndsWithItsStatement) {
  // The '#pragma' line is no part of what kind of statement follows: the
  // 'if' ends at its block's '}', not at the next ';'.
  Scanned S = scanOk("@meta for (int i = 0; i < 2; ++i)\n#pragma unroll\n"
                     "if (p) { f(); }\ng();\n");
  ASSERT_EQ(kinds(S.nodes()), (Kinds{NK::For, NK::Text}));
  EXPECT_EQ(S.text(S.nodes()[0].Branches[0].Body),
            "#pragma unroll\nif (p) { f(); }");
  EXPECT_EQ(S.text(S.nodes()[1].Whole), "\ng();\n");
}
