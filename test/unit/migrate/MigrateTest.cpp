//===- MigrateTest.cpp ----------------------------------------------------===//
#include "migrate/Migrate.h"
#include "migrate/LineTable.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

/// A conditional site over \p Text whose directives start at the lines
/// holding \p Markers; the last marker is the #endif.
Site conditional(llvm::StringRef Text, std::vector<llvm::StringRef> Markers,
                 std::vector<std::string> Codegen, SiteCategory C) {
  Site S;
  S.Kind = SiteKind::Conditional;
  S.Category = C;
  LineTable Lines(Text);
  for (size_t I = 0; I < Markers.size(); ++I) {
    SiteDirective D;
    D.Begin = Text.find(Markers[I]);
    D.Line = Lines.lineOf(D.Begin);
    D.End = Lines.end(D.Line);
    auto [Code, Comment] = Lines.text(D.Line).split("//");
    D.Text = Code.rtrim().str();
    if (!Comment.empty())
      D.Comment = "//" + Comment.str();
    D.IsEndif = I + 1 == Markers.size();
    D.IsElse = Markers[I].contains("#else");
    if (!D.IsEndif) {
      D.Codegen = Codegen[I];
      D.TakenBy = Codegen[I] == "dead" ? 0 : 1;
    }
    S.Directives.push_back(D);
  }
  S.Line = S.Directives.front().Line;
  S.Text = S.Directives.front().Text;
  S.Reason = "why";
  return S;
}

const char *Input = R"(void f() {
  int x = 0;
#if __CUDA_ARCH__ >= 800 // fast path
  x = 1;
#elif __CUDA_ARCH__ >= 300
  x = 3;
#else
  x = 2;
#endif
  g(x);
}
)";

TEST(MigrateTest, RewritesOnlyDirectiveLinesAndKeepsComments) {
  Site S = conditional(Input, {"#if", "#elif", "#else", "#endif"},
                       {"(int)__nvvm_arch >= 80", "(int)__nvvm_arch != 0", ""},
                       SiteCategory::Statement);
  Migration M = migrate("f.cu", Input, {S});
  EXPECT_EQ(M.Text, R"(void f() {
  int x = 0;
  if codegen ((int)__nvvm_arch >= 80) { // fast path
  x = 1;
  } else if codegen ((int)__nvvm_arch != 0) {
  x = 3;
  } else {
  x = 2;
  }
  g(x);
}
)");
  ASSERT_EQ(M.Report.size(), 1u);
  EXPECT_NE(M.Report[0].find("f.cu:3: converted (statement)"),
            std::string::npos);
}

TEST(MigrateTest, DropsBranchesNoArchitectureCompiles) {
  Site S = conditional(Input, {"#if", "#elif", "#else", "#endif"},
                       {"(int)__nvvm_arch >= 80", "dead", ""},
                       SiteCategory::Statement);
  Migration M = migrate("f.cu", Input, {S});
  EXPECT_EQ(M.Text.find("x = 3"), std::string::npos);
  EXPECT_NE(M.Text.find("  } else {\n  x = 2;\n  }\n"), std::string::npos);
  // Its lines stay, empty: __LINE__ after it is what it was.
  EXPECT_EQ(llvm::StringRef(M.Text).count('\n'),
            llvm::StringRef(Input).count('\n'));
}

TEST(MigrateTest, ALocalDeclarationChainBeginsWithUsing) {
  const char *Text = R"(void f() {
#if __CUDA_ARCH__ >= 300
  int *p = a;
#elif __CUDA_ARCH__ >= 800
  int *p = b;
#else
  int *p = c;
#endif
  g(p);
}
)";
  Site S = conditional(Text, {"#if", "#elif", "#else", "#endif"},
                       {"dead", "(int)__nvvm_arch >= 80", ""},
                       SiteCategory::LocalDeclaration);
  Migration M = migrate("f.cu", Text, {S});
  // The first branch emitted opens the chain, 'using' once before it.
  EXPECT_EQ(M.Text, R"(void f() {


  using if codegen ((int)__nvvm_arch >= 80) {
  int *p = b;
  } else {
  int *p = c;
  }
  g(p);
}
)");
  ASSERT_EQ(M.Report.size(), 1u);
  EXPECT_NE(M.Report[0].find("f.cu:2: converted (local-declaration): #if "
                             "__CUDA_ARCH__ >= 300 -> using if codegen "
                             "((int)__nvvm_arch >= 80) / else"),
            std::string::npos)
      << M.Report[0];
}

TEST(MigrateTest, AssumedArchitecturesKeepTheirOneLiveBranch) {
  // Passes (bits): host 0, then one per architecture. The host and the
  // assumed pass 2 compile the #else branch only: it stays, alone, and
  // every other line of the conditional is left empty.
  Site S = conditional(Input, {"#if", "#elif", "#else", "#endif"}, {"", "", ""},
                       SiteCategory::NotConvertible);
  S.Directives[0].TakenBy = 0b1000;
  S.Directives[1].TakenBy = 0b10;
  S.Directives[2].TakenBy = 0b101;
  S.Reached = 0b1111;
  Migration M = migrate("f.cu", Input, {S}, uint64_t(0b101));
  EXPECT_EQ(M.Text, "void f() {\n  int x = 0;\n\n\n\n\n\n  x = 2;\n\n"
                    "  g(x);\n}\n");
  EXPECT_EQ(M.Simplified, 1u);
  ASSERT_EQ(M.Report.size(), 1u);
  EXPECT_NE(M.Report[0].find("f.cu:3: simplified (not-convertible): #if "
                             "__CUDA_ARCH__ >= 800 -> the branch at line 7"),
            std::string::npos)
      << M.Report[0];
  // Without the assumption, or where the assumed passes compile two
  // branches, a hazard or an arch-specific feature test: as before.
  EXPECT_EQ(migrate("f.cu", Input, {S}).Text, Input);
  EXPECT_EQ(migrate("f.cu", Input, {S}, uint64_t(0b111)).Text, Input);
  Site H = S;
  H.Category = SiteCategory::Hazard;
  EXPECT_EQ(migrate("f.cu", Input, {H}, uint64_t(0b101)).Text, Input);
  Site F = S;
  F.ArchFeature = true;
  EXPECT_EQ(migrate("f.cu", Input, {F}, uint64_t(0b101)).Simplified, 0u);
  // An assumed pass that reaches it and compiles none of its branches
  // ('#ifdef __CUDA_ARCH__' in the host pass) is one more choice.
  Site N = S;
  N.Directives[2].TakenBy = 0b100;
  EXPECT_EQ(migrate("f.cu", Input, {N}, uint64_t(0b101)).Simplified, 0u);
}

TEST(MigrateTest, AFileACxxSourceIncludesKeepsItsTextAsWrittenForCxx) {
  // The rewritten conditional under #ifdef __CUDACC__ (nvcc reads the file
  // through metacu), the text as written in its #else (g++ reads it
  // without), each line numbered as written in both and after the #endif.
  Site S = conditional(Input, {"#if", "#elif", "#else", "#endif"},
                       {"(int)__nvvm_arch >= 80", "(int)__nvvm_arch != 0", ""},
                       SiteCategory::Statement);
  S.HostIncluder = "src/api.cc";
  Migration M = migrate("f.cu", Input, {S});
  EXPECT_EQ(M.Text, R"(void f() {
  int x = 0;
#ifdef __CUDACC__
#line 3
  if codegen ((int)__nvvm_arch >= 80) { // fast path
  x = 1;
  } else if codegen ((int)__nvvm_arch != 0) {
  x = 3;
  } else {
  x = 2;
  }
#else
#line 3
#if __CUDA_ARCH__ >= 800 // fast path
  x = 1;
#elif __CUDA_ARCH__ >= 300
  x = 3;
#else
  x = 2;
#endif
#endif
#line 10
  g(x);
}
)");
  ASSERT_EQ(M.Edits.size(), 1u);
  ASSERT_EQ(M.Report.size(), 1u);
  EXPECT_NE(M.Report[0].find("under #ifdef __CUDACC__, as written in its "
                             "#else for C++ source 'src/api.cc'"),
            std::string::npos)
      << M.Report[0];
  // --assume-arch's simplification too: g++ compiles what it did.
  Site Simple = S;
  Simple.Directives[0].TakenBy = 0b1000;
  Simple.Directives[1].TakenBy = 0b10;
  Simple.Directives[2].TakenBy = 0b101;
  Simple.Reached = 0b1111;
  Migration A = migrate("f.cu", Input, {Simple}, uint64_t(0b101));
  EXPECT_EQ(A.Simplified, 1u);
  EXPECT_NE(A.Text.find("#ifdef __CUDACC__\n#line 3\n\n\n\n\n\n  x = 2;\n\n"
                        "#else\n#line 3\n#if __CUDA_ARCH__ >= 800"),
            std::string::npos)
      << A.Text;
  // A site it leaves is left as it is.
  Site Left = S;
  Left.Category = SiteCategory::NotConvertible;
  EXPECT_EQ(migrate("f.cu", Input, {Left}).Text, Input);
}

TEST(MigrateTest, ForCxxTheWrapperTakesInTheLineABraceIsPutBeside) {
  // Kept directives: the chain's closing brace goes beside the code after
  // the #endif, which the wrapper then holds whole, in both branches.
  Site S =
      conditional(Input, {"#if", "#elif", "#else", "#endif"},
                  {"(int)__nvvm_arch >= 80", "", ""}, SiteCategory::Statement);
  S.Directives[1].Kept = S.Directives[2].Kept = true;
  llvm::StringRef Text(Input);
  S.Directives[0].BodyFirst = Text.find("x = 1;");
  S.Directives[0].BodyEnd = Text.find("x = 1;") + 6;
  S.Directives[3].BodyFirst = Text.find("g(x);");
  S.HostIncluder = "src/api.cc";
  EXPECT_EQ(migrate("f.cu", Input, {S}).Text, R"(void f() {
  int x = 0;
#ifdef __CUDACC__
#line 3
  if codegen ((int)__nvvm_arch >= 80) { // fast path
  x = 1; } else {
#if __CUDA_ARCH__ >= 300
  x = 3;
#else
  x = 2;
#endif
  } g(x);
#else
#line 3
#if __CUDA_ARCH__ >= 800 // fast path
  x = 1;
#elif __CUDA_ARCH__ >= 300
  x = 3;
#else
  x = 2;
#endif
  g(x);
#endif
#line 11
}
)");
}

TEST(MigrateTest, LeavesOtherSitesAndSaysWhy) {
  Site S = conditional(Input, {"#if", "#elif", "#else", "#endif"}, {"", "", ""},
                       SiteCategory::NotConvertible);
  Migration M = migrate("f.cu", Input, {S});
  EXPECT_EQ(M.Text, Input);
  EXPECT_TRUE(M.Edits.empty());
  ASSERT_EQ(M.Report.size(), 1u);
  EXPECT_EQ(M.Report[0],
            "f.cu:3: left (not-convertible): #if __CUDA_ARCH__ >= 800: why");
}

TEST(MigrateTest, ColumnOneDirectivesTakeTheIndentOfTheirCode) {
  const char *Text = "void f() {\n"
                     "#if __CUDA_ARCH__ >= 800\n"
                     "    g();\n"
                     "#endif\n"
                     "}\n";
  Site S = conditional(Text, {"#if", "#endif"}, {"(int)__nvvm_arch >= 80"},
                       SiteCategory::Statement);
  EXPECT_EQ(migrate("f.cu", Text, {S}).Text,
            "void f() {\n"
            "    if codegen ((int)__nvvm_arch >= 80) {\n"
            "    g();\n"
            "    }\n"
            "}\n");
}

TEST(MigrateTest, ADroppedBranchTakesNestedConditionalsAlong) {
  Site Outer = conditional(Input, {"#if", "#elif", "#else", "#endif"},
                           {"(int)__nvvm_arch >= 80", "dead", ""},
                           SiteCategory::Statement);
  // A site inside the dropped #elif branch.
  Site Inner = conditional(Input, {"  x = 3", "#else"},
                           {"(int)__nvvm_arch >= 90"}, SiteCategory::Statement);
  Migration M = migrate("f.cu", Input, {Outer, Inner});
  EXPECT_EQ(M.Text.find("x = 3"), std::string::npos);
  for (size_t I = 1; I < M.Edits.size(); ++I)
    EXPECT_LE(M.Edits[I - 1].End, M.Edits[I].Begin);
}

TEST(MigrateTest, OnlyConditionalsAreRewritten) {
  Site S = conditional(Input, {"#if", "#elif", "#else", "#endif"},
                       {"(int)__nvvm_arch >= 80", "(int)__nvvm_arch != 0", ""},
                       SiteCategory::Statement);
  S.Kind = SiteKind::ValueUse;
  Migration M = migrate("f.cu", Input, {S});
  EXPECT_EQ(M.Text, Input);
  EXPECT_EQ(M.Report[0].find("f.cu:3: left (statement)"), 0u) << M.Report[0];
}

TEST(MigrateTest, ValueUsesBecomeNvvmArch) {
  const char *Text = "__device__ int f() {\n"
                     "  return pick<__CUDA_ARCH__>() + __CUDA_ARCH__;\n"
                     "}\n";
  auto Use = [&](llvm::StringRef Before, SiteCategory C) {
    Site S;
    S.Kind = SiteKind::ValueUse;
    S.Category = C;
    S.Offset = llvm::StringRef(Text).find(Before) + Before.size();
    S.Line = 2;
    S.Text = "return ...";
    return S;
  };
  Migration M = migrate(
      "f.cu", Text,
      {Use("pick<", SiteCategory::Value), Use("+ ", SiteCategory::Value)});
  EXPECT_EQ(M.Text, "__device__ int f() {\n"
                    "  return pick<((int)__nvvm_arch * 10)>() + "
                    "((int)__nvvm_arch * 10);\n"
                    "}\n");
  ASSERT_EQ(M.Edits.size(), 2u); // one per token: the rest of the line stays
  EXPECT_EQ(M.Report[0].find("f.cu:2: converted (value)"), 0u) << M.Report[0];
  // One that stays is left as written.
  M = migrate("f.cu", Text,
              {Use("pick<", SiteCategory::Value),
               Use("+ ", SiteCategory::NotConvertible)});
  EXPECT_NE(M.Text.find("((int)__nvvm_arch * 10)>() + __CUDA_ARCH__;"),
            std::string::npos)
      << M.Text;
}

TEST(MigrateTest, EachLineKeepsItsOwnLineBreak) {
  // Clang and nvcc end a line at a lone CR too: a file of CR, CRLF and LF
  // lines (and a byte order mark) keeps every one of them.
  std::string Text = "\xEF\xBB\xBF#if __CUDA_ARCH__ >= 800\r"
                     "  x = 1;\r\n"
                     "#else\r\n"
                     "  x = 2;\r"
                     "#endif\n"
                     "  g(x);\r";
  Site S = conditional(Text, {"#if", "#else", "#endif"},
                       {"(int)__nvvm_arch >= 80", ""}, SiteCategory::Statement);
  Migration M = migrate("f.cu", Text, {S});
  EXPECT_EQ(M.Text, "\xEF\xBB\xBF  if codegen ((int)__nvvm_arch >= 80) {\r"
                    "  x = 1;\r\n"
                    "  } else {\r\n"
                    "  x = 2;\r"
                    "  }\n"
                    "  g(x);\r");
}

TEST(MigrateTest, ValueUsesOnCrLines) {
  std::string Text = "int a = __CUDA_ARCH__;\rint b = __CUDA_ARCH__;\r";
  Site A, B;
  A.Kind = B.Kind = SiteKind::ValueUse;
  A.Category = B.Category = SiteCategory::Value;
  A.Offset = Text.find("__CUDA");
  B.Offset = Text.rfind("__CUDA");
  Migration M = migrate("f.cu", Text, {A, B});
  EXPECT_EQ(M.Text, "int a = ((int)__nvvm_arch * 10);\r"
                    "int b = ((int)__nvvm_arch * 10);\r");
}

/// A conditional with kept directives, as Classify marks it: \p Kept
/// directives stay, the first of the architecture's after them their
/// #else; braces go beside the branches' first and last tokens.
Site nested(llvm::StringRef Text, std::vector<llvm::StringRef> Markers,
            std::vector<std::string> Codegen, std::vector<bool> Kept) {
  Site S = conditional(Text, Markers, Codegen, SiteCategory::Statement);
  for (size_t I = 0; I + 1 < S.Directives.size(); ++I) {
    SiteDirective &D = S.Directives[I];
    D.Kept = Kept[I];
    if (D.Kept)
      D.Codegen.clear();
    unsigned Next = S.Directives[I + 1].Begin;
    llvm::StringRef Body = Text.slice(D.End, Next);
    D.BodyFirst = D.End + Body.find_first_not_of(" \n");
    D.BodyEnd = D.End + Body.rtrim(" \n").size();
  }
  SiteDirective &End = S.Directives.back();
  End.BodyFirst = End.End + Text.substr(End.End).find_first_not_of(" \n");
  return S;
}

TEST(MigrateTest, KeptDirectivesFirstEncloseTheChainInTheirElse) {
  const char *Text = R"(__device__ int f(int x) {
#ifdef GGML_USE_HIP
  x = 1;
#elif __CUDA_ARCH__ >= 800
  x = 2;
#else
  x = 3;
#endif
  return x;
}
)";
  Site S = nested(Text, {"#ifdef", "#elif", "#else", "#endif"},
                  {"", "(int)__nvvm_arch >= 80", ""}, {true, false, false});
  Migration M = migrate("f.cu", Text, {S});
  EXPECT_EQ(M.Text, R"(__device__ int f(int x) {
#ifdef GGML_USE_HIP
  x = 1;
#else
  if codegen ((int)__nvvm_arch >= 80) { x = 2;
  } else {
  x = 3; }
#endif
  return x;
}
)");
  EXPECT_NE(M.Report[0].find("#ifdef GGML_USE_HIP (kept) / #else / if codegen"),
            std::string::npos)
      << M.Report[0];
}

TEST(MigrateTest, KeptDirectivesAfterTheChainAreItsLastElse) {
  const char *Text = R"(__host__ __device__ int f(int x) {
#if __CUDA_ARCH__ >= 900
  x = 1;
#elif defined(GGML_USE_MUSA)
  x = 2;
#elif defined(__CUDA_ARCH__)
  x = 3;
#else
  x = 4;
#endif
  return x;
}
)";
  Site S = nested(
      Text,
      {"#if", "#elif defined(GGML", "#elif defined(__CUDA", "#else", "#endif"},
      {"(int)__nvvm_arch >= 90", "", "(int)__nvvm_arch != 0", ""},
      {false, true, false, false});
  Migration M = migrate("f.cu", Text, {S});
  // The 'else' that holds the kept #if closes after its #endif, in the
  // text every reading of the preprocessor keeps; no line moves.
  EXPECT_EQ(M.Text, R"(__host__ __device__ int f(int x) {
  if codegen ((int)__nvvm_arch >= 90) {
  x = 1; } else {
#if defined(GGML_USE_MUSA)
  x = 2;
#else
  if codegen ((int)__nvvm_arch != 0) { x = 3;
  } else {
  x = 4; }
#endif
  } return x;
}
)");
}

TEST(MigrateTest, AChainForThisBuildComesFirstTheConditionalAsWrittenAfter) {
  const char *Text = R"(__device__ int f(const int *p) {
#if defined(AMD_MFMA) || defined(TURING)
  const int *q = p + 1;
#elif __CUDA_ARCH__ >= 300
  const int *q = p + 5;
#else
  const int *q = p + 3;
#endif // AMD or TURING
  return *q;
}
)";
  Site S = conditional(Text, {"#if", "#elif", "#else", "#endif"},
                       {"(int)__nvvm_arch >= 75", "dead", ""},
                       SiteCategory::LocalDeclaration);
  S.ThisBuild = "!defined(AMD_MFMA) && !defined(GGML_USE_HIP)";
  Migration M = migrate("f.cu", Text, {S});
  // The branch no pass compiles stays in the conditional as written, for
  // the other builds. Every line of code keeps its number: each branch's
  // in the chain and in the conditional as written, and those after it.
  EXPECT_EQ(M.Text, R"(__device__ int f(const int *p) {
#if !defined(AMD_MFMA) && !defined(GGML_USE_HIP)
#line 2
  using if codegen ((int)__nvvm_arch >= 75) {
  const int *q = p + 1;
#line 6
  } else {
  const int *q = p + 3;
  }
#elif defined(AMD_MFMA) || defined(TURING)
#line 3
  const int *q = p + 1;
#elif __CUDA_ARCH__ >= 300
#line 5
  const int *q = p + 5;
#else
#line 7
  const int *q = p + 3;
#endif // AMD or TURING
#line 9
  return *q;
}
)");
  EXPECT_NE(M.Report[0].find("-> #if !defined(AMD_MFMA) && "
                             "!defined(GGML_USE_HIP) / using if codegen "
                             "((int)__nvvm_arch >= 75) / else / #elif as "
                             "written"),
            std::string::npos)
      << M.Report[0];
}

TEST(MigrateTest, AnIfdefAfterThisBuildsChainBecomesElifDefined) {
  const char *Text = "void f(int &x) {\n"
                     "#ifndef GGML_USE_MUSA\n"
                     "  x += 1;\n"
                     "#endif\n"
                     "}\n";
  Site S = conditional(Text, {"#ifndef", "#endif"}, {"(int)__nvvm_arch >= 80"},
                       SiteCategory::Statement);
  S.ThisBuild = "!defined(GGML_USE_MUSA) && !defined(GGML_USE_HIP)";
  EXPECT_EQ(migrate("f.cu", Text, {S}).Text,
            "void f(int &x) {\n"
            "#if !defined(GGML_USE_MUSA) && !defined(GGML_USE_HIP)\n"
            "#line 2\n"
            "  if codegen ((int)__nvvm_arch >= 80) {\n"
            "  x += 1;\n"
            "  }\n"
            "#elif !defined(GGML_USE_MUSA)\n"
            "#line 3\n"
            "  x += 1;\n"
            "#endif\n"
            "#line 5\n"
            "}\n");
}

} // namespace
