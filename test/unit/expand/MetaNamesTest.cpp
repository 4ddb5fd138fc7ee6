//===- MetaNamesTest.cpp - Names meta code declares and uses --------------===//
#include "expand/MetaNames.h"

#include <gtest/gtest.h>
#include <set>

using namespace metacu;
using Names = std::vector<std::string>;

namespace {

/// Lexes \p Code (kept alive by the caller's string) and reads it.
DeclaredNames declared(const std::string &Code) {
  return declaredNames(lexRaw(Code));
}

TEST(MetaNamesTest, VariablesWithInitializers) {
  std::string S = "int a = 1, b = 2";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Values, (Names{"a", "b"}));
  EXPECT_TRUE(D.Types.empty());
}

TEST(MetaNamesTest, VariableOfNestedTemplateTypeWithBracedInitializer) {
  std::string S = "const std::map<int, std::vector<int>> m{{1, {2, 3}}, "
                  "{4, {5}}}";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Values, (Names{"m"}));
}

TEST(MetaNamesTest, ConceptIsADeclarationOfAType) {
  std::string S = "template <class T> concept narrow = sizeof(T) <= 2";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Types, (Names{"narrow"}));
  EXPECT_TRUE(D.Values.empty());
}

TEST(MetaNamesTest, PointersReferencesAndSpecifiers) {
  std::string S = "static constexpr unsigned long long *p = nullptr, &r = x, "
                  "n[4] = {1, 2}";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Values, (Names{"p", "r", "n"}));
}

TEST(MetaNamesTest, InitializerCommasInsideParenthesesDoNotSplit) {
  std::string S = "std::vector<int> v(3, f(1, 2)), w";
  EXPECT_EQ(declared(S).Values, (Names{"v", "w"}));
}

TEST(MetaNamesTest, StructuredBindings) {
  std::string S = "auto [x, y] = p";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Values, (Names{"x", "y"}));
  std::string S2 = "const auto &[k, v] = *table.begin()";
  EXPECT_EQ(declared(S2).Values, (Names{"k", "v"}));
}

TEST(MetaNamesTest, FunctionDefinitionDeclaresOnlyItsName) {
  std::string S = "int f(int x) { int y = x; return y; }";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Values, (Names{"f"}));
  std::string T = "template <class T> T twice(T v) { return v + v; }";
  EXPECT_EQ(declared(T).Values, (Names{"twice"}));
  std::string A = "auto g(int n) -> int { return n, 1; }";
  EXPECT_EQ(declared(A).Values, (Names{"g"}));
}

TEST(MetaNamesTest, StructDeclaresAType) {
  std::string S = "struct S { int a; int b; }";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Types, (Names{"S"}));
  EXPECT_TRUE(D.Values.empty());
  EXPECT_TRUE(D.Enumerators.empty());
}

TEST(MetaNamesTest, ScopedEnumWithInitializedEnumerators) {
  std::string S = "enum class E { a, b = 3, c }";
  DeclaredNames D = declared(S);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_TRUE(D.IsScopedEnum);
  EXPECT_EQ(D.Types, (Names{"E"}));
  EXPECT_EQ(D.Enumerators, (Names{"a", "b", "c"}));
}

TEST(MetaNamesTest, UnscopedEnumWithUnderlyingTypeAndExpressions) {
  std::string S = "enum color : int { red = f(1, 2), green, blue = red + 1 }";
  DeclaredNames D = declared(S);
  EXPECT_FALSE(D.IsScopedEnum);
  EXPECT_EQ(D.Types, (Names{"color"}));
  EXPECT_EQ(D.Enumerators, (Names{"red", "green", "blue"}));
}

TEST(MetaNamesTest, TypeAliases) {
  std::string U = "using T = int";
  DeclaredNames D = declared(U);
  EXPECT_TRUE(D.IsDeclaration);
  EXPECT_EQ(D.Types, (Names{"T"}));
  std::string TD = "typedef int U";
  EXPECT_EQ(declared(TD).Types, (Names{"U"}));
  std::string TM = "typedef std::map<int, int> table_t";
  EXPECT_EQ(declared(TM).Types, (Names{"table_t"}));
  std::string UN = "using namespace std";
  DeclaredNames N = declared(UN);
  EXPECT_TRUE(N.IsDeclaration);
  EXPECT_TRUE(N.Types.empty());
  EXPECT_TRUE(N.Values.empty());
}

TEST(MetaNamesTest, ExpressionsAreNotDeclarations) {
  for (std::string S :
       {"x = 3", "f(3)", "printf(\"%d\\n\", n)", "std::cout << x", "++i",
        "v.push_back(1)", "table[2] = 4", "ns::g(1, 2)"}) {
    DeclaredNames D = declared(S);
    EXPECT_FALSE(D.IsDeclaration) << S;
    EXPECT_TRUE(D.Values.empty()) << S;
  }
}

TEST(MetaNamesTest, LoopVariablesOfClassicForms) {
  std::string S = "int i = 0; i < n; ++i";
  EXPECT_EQ(loopVariables(lexRaw(S)), (Names{"i"}));
  std::string T = "int i = 0, j = n; i < j; ++i, --j";
  EXPECT_EQ(loopVariables(lexRaw(T)), (Names{"i", "j"}));
}

TEST(MetaNamesTest, LoopVariablesOfRangedForms) {
  std::string S = "auto [k, v] : table";
  EXPECT_EQ(loopVariables(lexRaw(S)), (Names{"k", "v"}));
  std::string T = "const auto &e : std::vector<int>{1, 2}";
  EXPECT_EQ(loopVariables(lexRaw(T)), (Names{"e"}));
  std::string U = "int x : {1, 2, 3}";
  EXPECT_EQ(loopVariables(lexRaw(U)), (Names{"x"}));
}

TEST(MetaNamesTest, KeywordsIncludeCudaOnes) {
  EXPECT_TRUE(isKeyword("int"));
  EXPECT_TRUE(isKeyword("constexpr"));
  EXPECT_TRUE(isKeyword("__global__"));
  EXPECT_TRUE(isKeyword("__device__"));
  EXPECT_FALSE(isKeyword("table"));
  EXPECT_FALSE(isKeyword("std"));
  EXPECT_FALSE(isKeyword("meta"));
}

std::set<std::string> metaIds(const std::string &Code) {
  SourceFile F("m.cu", Code);
  auto S = scan(F);
  if (!S) {
    ADD_FAILURE() << llvm::toString(S.takeError());
    return {};
  }
  std::set<std::string> Out;
  for (auto &E : metaIdentifiers(*S))
    Out.insert(E.getKey().str());
  return Out;
}

TEST(MetaNamesTest, MetaIdentifiersRecordUsesLessMetaDeclarations) {
  auto Ids = metaIds(
      "const std::map<int, cfg_t> table{};\n"
      "@meta int n = table.at(80).nt + ns::helper(2) + other->field;\n"
      "@meta cfg_t c = lookup(n);\n"
      "__global__ void k(int *p) { p[0] = @(n + extra); int q = unseen; }\n");
  EXPECT_EQ(Ids, (std::set<std::string>{"table", "ns", "ns::helper", "other",
                                        "cfg_t", "lookup", "extra"}));
}

TEST(MetaNamesTest, MetaIdentifiersOfLoopsAndConditions) {
  auto Ids = metaIds(
      "__global__ void k() {\n"
      "  @meta for (int i = 0; i < N; ++i) { @meta if (i < limit) x[i]; }\n"
      "  @meta for (auto [a, b] : pairs) y(@(a));\n"
      "  @meta for enum (auto e : mode_t) z();\n"
      "  @meta while (more()) w();\n"
      "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) v();\n"
      "}\n");
  EXPECT_EQ(Ids, (std::set<std::string>{"N", "limit", "pairs", "mode_t", "more",
                                        "__nvvm_arch", "nvvm_arch_t",
                                        "nvvm_arch_t::sm_80"}));
}

TEST(MetaNamesTest, MetaIdentifiersExcludeMetaTypesFunctionsAndEnumerators) {
  auto Ids = metaIds("@meta struct pair_t { int lo; int hi; };\n"
                     "@meta enum class kind { fast, slow };\n"
                     "@meta int sq(int v) { return v * v; }\n"
                     "@meta using alias = pair_t;\n"
                     "@meta pair_t p{sq(2), (int)kind::fast + base};\n"
                     "@meta std::printf(\"%d\\n\", p.lo);\n");
  for (const char *Used : {"base", "std", "std::printf"})
    EXPECT_TRUE(Ids.count(Used)) << Used;
  for (const char *MetaDeclared :
       {"pair_t", "kind", "fast", "slow", "sq", "alias", "p"})
    EXPECT_FALSE(Ids.count(MetaDeclared)) << MetaDeclared;
}

} // namespace

TEST(MetaNamesTest, AnOrdinaryStaticAssertOnAMetaNameIsMetaCode) {
  // Its condition's names are resolved for the generator, which checks it;
  // one that names no meta variable is nvcc's.
  auto Ids = metaIds("@meta auto it = table.find(80);\n"
                     "static_assert(it != config.end(), \"found\");\n"
                     "static_assert(sizeof(plain) == 4, \"nvcc's\");\n");
  EXPECT_TRUE(Ids.count("config"));
  EXPECT_FALSE(Ids.count("plain"));
}

TEST(MetaNamesTest, StaticAssertPartsSplitConditionAndMessage) {
  std::vector<Token> T =
      lexRaw("static_assert(a < b, \"one\" \"two\"); static_assert(f(x, y));");
  auto P = staticAssertParts(T, 0);
  ASSERT_TRUE(P);
  EXPECT_EQ(T[P->CondBegin].Text, "a");
  EXPECT_EQ(T[P->CondEnd - 1].Text, "b");
  EXPECT_EQ(P->MsgEnd - P->MsgBegin, 2u);
  EXPECT_EQ(T[P->Close + 1].Text, ";");
  unsigned Second = P->Close + 2;
  auto Q = staticAssertParts(T, Second);
  ASSERT_TRUE(Q);
  EXPECT_EQ(T[Q->CondEnd - 1].Text, ")");
  EXPECT_EQ(Q->MsgBegin, Q->MsgEnd);
  EXPECT_FALSE(staticAssertParts(lexRaw("static_assert;"), 0));
}
