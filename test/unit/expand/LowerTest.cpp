//===- LowerTest.cpp - The construct tree becomes a generator program -----===//
#include "expand/Lower.h"
#include "TempDir.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <regex>

using namespace metacu;

namespace {

/// Lowers one input. Most tests hand-make the host slice (the input needs
/// nothing from ordinary code); sliced() runs the real one.
class LowerTest : public ::testing::Test {
protected:
  llvm::Expected<Generator> lowerWith(std::string Code,
                                      const HostSliceResult &Slice,
                                      llvm::StringRef ArchSpec = "80") {
    load(std::move(Code));
    auto S = scan(*File);
    if (!S)
      return S.takeError();
    Scan = std::move(*S);
    Archs = std::make_unique<ArchList>(std::move(*ArchList::parse(ArchSpec)));
    return lower(*File, Scan, Slice, *Archs);
  }
  llvm::Expected<Generator> lowerCode(std::string Code) {
    return lowerWith(std::move(Code), HostSliceResult());
  }
  Generator lowerOk(std::string Code) {
    auto G = lowerCode(std::move(Code));
    if (!G) {
      ADD_FAILURE() << llvm::toString(G.takeError());
      return Generator();
    }
    return std::move(*G);
  }
  /// The located error lowering \p Code gives: offset and message.
  std::pair<unsigned, std::string>
  lowerError(std::string Code, const HostSliceResult &Slice = {}) {
    auto G = lowerWith(std::move(Code), Slice);
    std::pair<unsigned, std::string> Out{~0u, "<no error>"};
    if (G) {
      ADD_FAILURE() << "lowering should fail; program:\n" << G->Program;
      return Out;
    }
    llvm::handleAllErrors(
        G.takeError(),
        [&](const LocatedError &E) { Out = {E.offset(), E.text()}; },
        [&](const llvm::ErrorInfoBase &E) {
          ADD_FAILURE() << "not a located error: " << E.message();
        });
    return Out;
  }

  void load(std::string Code) {
    File = std::make_unique<SourceFile>(Tmp.path("k.cu"), std::move(Code));
  }

  unsigned offsetOf(llvm::StringRef Needle, unsigned Nth = 0) const {
    size_t P = File->text().find(Needle);
    while (Nth-- && P != llvm::StringRef::npos)
      P = File->text().find(Needle, P + 1);
    EXPECT_NE(P, llvm::StringRef::npos) << Needle.str();
    return P;
  }

  /// The input ranges the program copies to the output with text().
  static std::vector<Range> textRanges(const std::string &Program) {
    std::vector<Range> Out;
    std::regex Call(R"(::metacu::detail::text\((\d+), (\d+)\);)");
    for (std::sregex_iterator I(Program.begin(), Program.end(), Call), E;
         I != E; ++I)
      Out.push_back(
          {unsigned(std::stoul((*I)[1])), unsigned(std::stoul((*I)[2]))});
    return Out;
  }
  static bool copied(const std::string &Program, unsigned Offset) {
    for (const Range &R : textRanges(Program))
      if (R.Begin <= Offset && Offset < R.End)
        return true;
    return false;
  }
  /// Whether program offset \p Pos is inside a run block (a block that runs
  /// when the program is loaded) rather than at namespace scope.
  static bool inRunBlock(const std::string &Program, size_t Pos) {
    EXPECT_NE(Pos, std::string::npos);
    llvm::StringRef Before = llvm::StringRef(Program).take_front(Pos);
    size_t Opens = Before.count("::metacu::detail::run_block([] {\n");
    size_t Closes =
        Before.count("::metacu::detail::block_finished = true;\n});\n");
    return Opens > Closes;
  }

  TempDir Tmp;
  std::unique_ptr<SourceFile> File;
  ScanResult Scan;
  std::unique_ptr<ArchList> Archs;
};

TEST_F(LowerTest, PreludeHasTheLibraryAndTheArchEnum) {
  auto G = lowerWith("int x;\n", HostSliceResult(), "75,90");
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_NE(G->Prelude.find("#include <metacu/detail/generator.h>"),
            std::string::npos);
  EXPECT_NE(
      G->Prelude.find("enum class nvvm_arch_t { sm_75 = 75, sm_90 = 90 };"),
      std::string::npos);
  // Reflection over nvvm_arch_t, for '@meta for enum'.
  EXPECT_NE(G->Prelude.find("{nvvm_arch_t::sm_90, \"sm_90\"}"),
            std::string::npos)
      << G->Prelude;
  // Plain code is copied whole.
  EXPECT_EQ(textRanges(G->Program).size(), 1u);
  EXPECT_TRUE(copied(G->Program, 0));
  EXPECT_TRUE(copied(G->Program, 5));
}

TEST_F(LowerTest, NamespaceScopeMetaDeclarationsAreGlobalsAndStatementsRun) {
  Generator G = lowerOk("@meta int n = 4;\n"
                        "@meta int twice(int v) { return 2 * v; }\n"
                        "__global__ void k(int *p) {\n"
                        "  @meta int m = twice(n);\n"
                        "  p[0] = m + s.m;\n"
                        "}\n");
  const std::string &P = G.Program;
  size_t N = P.find("int n = 4;");
  size_t Twice = P.find("int twice(int v) { return 2 * v; }");
  size_t M = P.find("int m = twice(n);");
  ASSERT_NE(N, std::string::npos) << P;
  ASSERT_NE(Twice, std::string::npos) << P;
  ASSERT_NE(M, std::string::npos) << P;
  EXPECT_FALSE(inRunBlock(P, N)) << P;
  EXPECT_FALSE(inRunBlock(P, Twice)) << P;
  EXPECT_TRUE(inRunBlock(P, M)) << P;
  EXPECT_LT(N, Twice);
  EXPECT_LT(Twice, M);

  // Meta code is copied verbatim and maps back byte for byte.
  EXPECT_EQ(G.Map.toInput(M), offsetOf("int m = twice(n);"));
  EXPECT_EQ(G.Map.toInput(M + 8), offsetOf("twice(n);"));
  EXPECT_EQ(G.Map.toInput(N), offsetOf("int n = 4;"));

  // The use of 'm' in ordinary code becomes a value; 's.m' is a member.
  unsigned Use = offsetOf("m + s.m");
  EXPECT_NE(
      P.find("::metacu::detail::value(" + std::to_string(Use) + ", (m));"),
      std::string::npos)
      << P;
  EXPECT_EQ(P.find("::metacu::detail::value(" + std::to_string(Use + 6)),
            std::string::npos)
      << P;
  EXPECT_FALSE(copied(P, Use));
  EXPECT_TRUE(copied(P, Use + 4));
  EXPECT_TRUE(copied(P, offsetOf("__global__")));
  EXPECT_TRUE(copied(P, offsetOf("p[0] = ")));
  // Meta statements alone on their lines vanish from the output, lines
  // included.
  EXPECT_FALSE(copied(P, offsetOf("@meta int n")));
  EXPECT_FALSE(copied(P, offsetOf("@meta int m")));
  EXPECT_FALSE(copied(P, offsetOf("@meta int m") - 1));
}

TEST_F(LowerTest, MetaLoopsAndIfsBecomeRealLoopsAndIfsAroundTheirBodies) {
  Generator G =
      lowerOk("__device__ void f(float *x) {\n"
              "  @meta for (int i = 0; i < 4; ++i)\n"
              "    x[i] = 0;\n"
              "  @meta if (sizeof(int) == 4) x[0] = 1; else x[0] = 2;\n"
              "}\n");
  const std::string &P = G.Program;
  size_t For = P.find("for (int i = 0; i < 4; ++i) {");
  ASSERT_NE(For, std::string::npos) << P;
  EXPECT_TRUE(inRunBlock(P, For));
  EXPECT_NE(P.find("if (sizeof(int) == 4) {"), std::string::npos) << P;
  EXPECT_NE(P.find("} else {"), std::string::npos) << P;
  // The loop variable is a meta value in the body.
  EXPECT_NE(P.find("::metacu::detail::value(" +
                   std::to_string(offsetOf("i] = 0")) + ", (i));"),
            std::string::npos)
      << P;
  EXPECT_EQ(P.find("unroll_for"), std::string::npos);
}

TEST_F(LowerTest, TemplateDependentLoopUnrollsThroughTheRuntimeHelper) {
  Generator G = lowerOk("template <int N>\n"
                        "__device__ void f(float *x) {\n"
                        "  @meta for (int i = 0; i < N; i += 2)\n"
                        "    x[i] = 0;\n"
                        "}\n");
  const std::string &P = G.Program;
  EXPECT_NE(P.find("::metacu::unroll_for<int, "), std::string::npos) << P;
  EXPECT_NE(P.find("::metacu::loop_cmp::lt>"), std::string::npos) << P;
  EXPECT_NE(P.find("constexpr int i = decltype(metacu_i_)::value;"),
            std::string::npos)
      << P;
  // Nothing runs the loop at generation time.
  EXPECT_EQ(P.find("for (int i = 0; i < N"), std::string::npos) << P;
  // The bound and the body are ordinary code, copied.
  EXPECT_TRUE(copied(P, offsetOf("N; i += 2")));
  EXPECT_TRUE(copied(P, offsetOf("x[i] = 0")));
  EXPECT_TRUE(copied(P, offsetOf("i] = 0")));
}

/// Whether the program spells a meta value at input offset \p At.
static bool spelledAt(const Generator &G, unsigned At) {
  return G.Program.find("::metacu::detail::value(" + std::to_string(At) +
                        ",") != std::string::npos;
}

TEST_F(LowerTest, TemplateDependentLoopRejectsBreakAndMetaStatements) {
  auto [Offset, Msg] =
      lowerError("template <int N> __device__ void f(int *x) {\n"
                 "  @meta for (int i = 0; i < N; ++i) {\n"
                 "    if (x[i]) break;\n"
                 "  }\n"
                 "}\n");
  EXPECT_EQ(Offset, offsetOf("break"));
  EXPECT_NE(Msg.find("'break' cannot appear"), std::string::npos) << Msg;

  // Meta code there runs once at generation time, not once per index.
  auto [Offset2, Msg2] = lowerError(
      "@meta int count = 0;\n"
      "template <int N> __device__ void f(int *x) {\n"
      "  @meta for (int i = 0; i < N; ++i) { @meta ++count; }\n"
      "}\n");
  EXPECT_EQ(Offset2, offsetOf("++count"));
  EXPECT_NE(Msg2.find("only meta declarations may appear there"),
            std::string::npos)
      << Msg2;
}

TEST_F(LowerTest, MetaCodeReadingTemplateParametersBecomesConstexpr) {
  Generator G = lowerOk("template <int N> __device__ int f(int *x) {\n"
                        "  @meta int h = N / 2;\n"
                        "  @meta for (int i = 0; i < h; ++i) {\n"
                        "    @meta int j = i * 2;\n"
                        "    @meta if (j > 2) x[j] = 1; else x[i] = 0;\n"
                        "  }\n"
                        "  return h;\n"
                        "}\n");
  const std::string &P = G.Program;
  EXPECT_NE(P.find("\"constexpr \""), std::string::npos) << P;
  EXPECT_NE(P.find("\"if constexpr (\""), std::string::npos) << P;
  EXPECT_NE(P.find("::metacu::unroll_for<int, "), std::string::npos) << P;
  // The declarations are the template's: copied, never run by metacu.
  EXPECT_TRUE(copied(P, offsetOf("h = N / 2")));
  EXPECT_TRUE(copied(P, offsetOf("j = i * 2")));
  EXPECT_FALSE(spelledAt(G, offsetOf("h;\n}")));

  auto [Offset, Msg] = lowerError("template <int N> __device__ void g() {\n"
                                  "  @meta printf(\"%d\", N);\n"
                                  "}\n");
  EXPECT_EQ(Offset, offsetOf("printf"));
  EXPECT_NE(Msg.find("uses a template parameter"), std::string::npos) << Msg;
}

TEST_F(LowerTest, TemplateOverAnEnumerationIsSpecializedPerEnumerator) {
  Generator G = lowerOk("const int table[] = {1, 2};\n"
                        "template <nvvm_arch_t sm> __device__ int f() {\n"
                        "  @meta int v = (int)sm;\n"
                        "  return v;\n"
                        "}\n"
                        "template <nvvm_arch_t sm> __device__ int g() {\n"
                        "  @meta int w = 1;\n"
                        "  return w;\n"
                        "}\n");
  const std::string &P = G.Program;
  // f's meta code reads sm: one specialization per enumerator, the body
  // expanded with sm a meta value.
  size_t Loop = P.find("for (auto sm : ::metacu::enum_values<nvvm_arch_t>())");
  ASSERT_NE(Loop, std::string::npos) << P;
  EXPECT_NE(P.find("\"template <>\"", Loop), std::string::npos) << P;
  EXPECT_TRUE(spelledAt(G, offsetOf("f()")));
  EXPECT_TRUE(spelledAt(G, offsetOf("v;\n}")));
  // g's does not: it stays one template.
  EXPECT_EQ(P.find("enum_values<nvvm_arch_t>", Loop + 40), std::string::npos)
      << P;
}

TEST_F(LowerTest, TemplateOverAnEnumerationAndATypeBranchesPerEnumerator) {
  Generator G =
      lowerOk("template <nvvm_arch_t sm, typename T = int> __device__ T f() {\n"
              "  @meta int v = (int)sm;\n"
              "  @meta int s = sizeof(T);\n"
              "  return v + s;\n"
              "}\n");
  const std::string &P = G.Program;
  // One template; its body once per enumerator, in an 'if constexpr'.
  size_t Loop = P.find("for (auto sm : ::metacu::enum_values<nvvm_arch_t>())");
  ASSERT_NE(Loop, std::string::npos) << P;
  EXPECT_EQ(P.find("\"template <>\"", Loop), std::string::npos) << P;
  EXPECT_NE(P.find("if constexpr (sm == ", Loop), std::string::npos) << P;
  EXPECT_TRUE(spelledAt(G, offsetOf("v + s")));
  // Meta code reading T is a constant expression of the template.
  EXPECT_NE(P.find("\"constexpr \""), std::string::npos) << P;
}

TEST_F(LowerTest, CodegenChainEvaluatesEveryCondition) {
  Generator G = lowerOk("__global__ void k(int *p) {\n"
                        "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) "
                        "p[0] = 1;\n"
                        "  else p[0] = 2;\n"
                        "}\n");
  const std::string &P = G.Program;
  EXPECT_NE(P.find("::metacu::detail::codegen_chain __metacu_cg(" +
                   std::to_string(offsetOf("if codegen")) + ");"),
            std::string::npos)
      << P;
  EXPECT_NE(P.find("return static_cast<bool>(__nvvm_arch >= "
                   "nvvm_arch_t::sm_80); });"),
            std::string::npos)
      << P;
  EXPECT_NE(P.find("__metacu_cg.otherwise();"), std::string::npos) << P;
  EXPECT_NE(P.find("if (__metacu_cg.open(1)) {"), std::string::npos) << P;
  EXPECT_NE(P.find("__metacu_cg.close();"), std::string::npos) << P;
}

TEST_F(LowerTest, CodegenChoosesDeclarationsMembersAndListEntries) {
  // The same chain as in a function body; the branches' braces are not
  // emitted (they open no scope), as a meta loop's are not there.
  for (const char *Code :
       {"int a;\nif codegen (true) { int x; }\n",
        "struct S {\n  if codegen (true) { int x; }\n};\n",
        "int t[] = {1, if codegen (true) { 2, } else { 3, } };\n"}) {
    Generator G = lowerOk(Code);
    const std::string &P = G.Program;
    EXPECT_NE(P.find("::metacu::detail::codegen_chain __metacu_cg("),
              std::string::npos)
        << P;
    EXPECT_NE(P.find("__metacu_cg.close();"), std::string::npos) << P;
    EXPECT_EQ(P.find("text(" + std::to_string(offsetOf("{ ")) + ", " +
                     std::to_string(offsetOf("{ ") + 1) + ")"),
              std::string::npos)
        << P;
  }
}

TEST_F(LowerTest, CodegenAfterACommaOutsideAListIsAnError) {
  // After a ',' it chooses list entries: a class's declarator list or a
  // function's braced argument are no initializer of a declared variable.
  for (const char *Code :
       {"struct S {\n  int a, if codegen (true) { b; }\n};\n",
        "void f() { g({1, if codegen (true) { 2, }}); }\n"}) {
    auto [Offset, Msg] = lowerError(Code);
    EXPECT_EQ(Offset, offsetOf("if codegen")) << Code;
    EXPECT_NE(Msg.find("'if codegen' after a ',' chooses entries of a braced "
                       "list"),
              std::string::npos)
        << Msg;
  }
}

TEST_F(LowerTest, OrdinaryDeclarationInTheMetaNamesOwnScopeIsAnError) {
  auto [Offset, Msg] = lowerError("__global__ void k(int *x) {\n"
                                  "  @meta int n = 4;\n"
                                  "  int n = x[0];\n"
                                  "}\n");
  EXPECT_EQ(Offset, offsetOf("n = x[0]"));
  EXPECT_EQ(Msg, "declaration of 'n' in ordinary code redeclares the meta "
                 "variable 'n' of the same scope; rename one of them");
}

TEST_F(LowerTest, InnerDeclarationHidesAMetaNameForTheRestOfItsBlock) {
  Generator G = lowerOk("@meta int n = 4;\n"
                        "__global__ void k(int *x) {\n"
                        "  x[0] = n;\n"
                        "  { int n = x[1]; x[2] = n + 1; }\n"
                        "  x[3] = n * 2;\n"
                        "}\n");
  EXPECT_TRUE(spelledAt(G, offsetOf("n;\n  {"))) << G.Program;
  EXPECT_FALSE(spelledAt(G, offsetOf("n + 1"))) << G.Program;
  EXPECT_TRUE(spelledAt(G, offsetOf("n * 2"))) << G.Program;
}

TEST_F(LowerTest, ParametersAndMembersHideAMetaNameInTheirBodies) {
  Generator G =
      lowerOk("@meta int n = 4;\n"
              "struct S { int n; __device__ int g() { return n + 5; } };\n"
              "__device__ int f(int n) { return n + 1; }\n"
              "__global__ void k(int *x, S s) {\n"
              "  for (int n = 0; n < 2; ++n) x[n + 2] = n + 3;\n"
              "  x[0] = n + s.n + f(n * 2);\n"
              "}\n");
  EXPECT_FALSE(spelledAt(G, offsetOf("n + 5"))) << G.Program;
  EXPECT_FALSE(spelledAt(G, offsetOf("n + 1"))) << G.Program;
  EXPECT_FALSE(spelledAt(G, offsetOf("n + 3"))) << G.Program;
  EXPECT_TRUE(spelledAt(G, offsetOf("n + s.n"))) << G.Program;
  EXPECT_TRUE(spelledAt(G, offsetOf("n * 2"))) << G.Program;
}

TEST_F(LowerTest, MacroNamingAMetaVariableIsRefusedWhereOrdinaryCodeUsesIt) {
  auto [Offset, Msg] =
      lowerError("@meta int w = 3;\n"
                 "#define SCALE(x) ((x) * w)\n"
                 "__device__ int f(int w) { return SCALE(w); }\n"
                 "__global__ void k(int *x) { x[0] = SCALE(2); }\n");
  EXPECT_EQ(Offset, offsetOf("SCALE(2)"));
  EXPECT_NE(Msg.find("macro 'SCALE' (defined at line 2) expands to the meta "
                     "variable 'w'"),
            std::string::npos)
      << Msg;
}

TEST_F(LowerTest, MetaNamesAreScopedByBraces) {
  // 'n' declared in f's body is not a meta name in g.
  Generator G = lowerOk("void f() { @meta int n = 1; }\n"
                        "void g(int n) { int m = n; }\n");
  EXPECT_EQ(G.Program.find("::metacu::detail::value("), std::string::npos)
      << G.Program;
  EXPECT_TRUE(copied(G.Program, offsetOf("n; }")));
}

TEST_F(LowerTest, UnbalancedBracesAreErrors) {
  auto [Offset, Msg] = lowerError("int a;\n}\nint b;\n");
  EXPECT_EQ(Offset, 7u);
  EXPECT_EQ(Msg, "unbalanced '}'");
  auto [Offset2, Msg2] = lowerError("int a;\nvoid f() {\n  int b;\n");
  EXPECT_EQ(Offset2, offsetOf("{"));
  EXPECT_NE(Msg2.find("this '{' is never closed"), std::string::npos) << Msg2;
  // A '}' in the body of a meta construct cannot close the scope around it
  // (before, it closed the body's scope and the construct then closed the
  // file's: a crash the scan fuzzer found).
  auto [Offset3, Msg3] = lowerError("@meta for()(}),}");
  EXPECT_EQ(Offset3, 12u);
  EXPECT_EQ(Msg3, "unbalanced '}'");
}

TEST_F(LowerTest, ConstructsInInactiveRegionsAreLeftAsWritten) {
  std::string Code = "#if 0\n@meta for (\n@meta int x = 1;\n#endif\nint b;\n";
  HostSliceResult Slice;
  Slice.Inactive.add({5, unsigned(Code.find("#endif"))});
  auto G = lowerWith(Code, Slice);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_TRUE(copied(G->Program, offsetOf("@meta for")));
  EXPECT_TRUE(copied(G->Program, offsetOf("@meta int")));
  EXPECT_EQ(G->Program.find("int x = 1;\n"), std::string::npos);
}

TEST_F(LowerTest, NamespaceAfterAnInactiveRegionMirrorsOnlyItsOwnHeader) {
  // The #else branch's namespace is mirrored (a meta declaration is in
  // it); the #if branch's, skipped by the preprocessor, must not reach the
  // program (real code keeps a HIP alternative there that names what CUDA
  // does not declare).
  std::string Code = "#if USE_OTHER\nnamespace a {\nint q = missing;\n}\n"
                     "#else\nnamespace a {\n@meta int z = 1;\n}\n#endif\n";
  HostSliceResult Slice;
  Slice.Inactive.add({unsigned(Code.find("#if")),
                      unsigned(Code.find("#else") + strlen("#else"))});
  auto G = lowerWith(Code, Slice);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_EQ(G->Program.find("missing"), std::string::npos) << G->Program;
  EXPECT_EQ(G->Program.find("#else"), std::string::npos) << G->Program;
  EXPECT_NE(G->Program.find("namespace a {\n"), std::string::npos)
      << G->Program;
}

TEST_F(LowerTest, SlicedDeclarationsAndIncludesReachTheProgram) {
  std::string Code = "#include <map>\n"
                     "#include <vector>\n"
                     "const std::map<int, int> t{{80, 2}};\n"
                     "__global__ void k(int *p) {\n"
                     "  @meta int u = t.at(80);\n"
                     "  p[0] = u;\n"
                     "}\n";
  load(Code);
  auto S = scan(*File);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  HostSliceOptions Opts;
  Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
  Opts.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Slice = sliceHost(*File, *S, metaIdentifiers(*S), Opts);
  ASSERT_TRUE(bool(Slice)) << llvm::toString(Slice.takeError());
  Scan = std::move(*S);
  ArchList A = std::move(*ArchList::parse("80"));
  auto G = lower(*File, Scan, *Slice, A);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  const std::string &P = G->Program;
  size_t Inc = P.find("\n#include <map>\n");
  size_t Table = P.find("\nconst std::map<int, int> t{{80, 2}};\n");
  size_t Use = P.find("int u = t.at(80);");
  ASSERT_NE(Inc, std::string::npos) << P;
  ASSERT_NE(Table, std::string::npos) << P;
  ASSERT_NE(Use, std::string::npos) << P;
  EXPECT_EQ(P.find("#include <vector>"), std::string::npos) << P;
  EXPECT_LT(Inc, Table);
  EXPECT_LT(Table, Use);
  EXPECT_FALSE(inRunBlock(P, Table));
  EXPECT_TRUE(inRunBlock(P, Use));
  // The table is ordinary code too: the output keeps it.
  EXPECT_TRUE(copied(P, offsetOf("const std::map")));
  EXPECT_TRUE(copied(P, offsetOf("#include <vector>")));
  // The first meta construct is in a function: no start, but the headers
  // before it are compiled once all the same (Execute.h).
  EXPECT_EQ(G->StartEnd, 0u);
  EXPECT_EQ(G->HeadersEnd, Inc + std::strlen("\n#include <map>\n")) << P;
}

TEST_F(LowerTest, TheHeadersEndAfterTheLastSplice) {
  // A dialect header's text spliced in (DialectHeaders.h) is compiled with
  // the headers; the file's own code after it, with the rest of the start.
  std::string Code = "namespace h {\n@meta int lanes = 4;\nint x;\n}\n"
                     "int own;\n"
                     "@meta int stride = 2;\n";
  load(Code);
  unsigned Own = offsetOf("int own");
  File->markOrigin(0, Tmp.path("h.cuh"), 1, false, {}, 1);
  File->markOrigin(Own, File->path().str(), 1);
  auto S = scan(*File);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  Scan = std::move(*S);
  ArchList A = std::move(*ArchList::parse("80"));
  auto G = lower(*File, Scan, HostSliceResult(), A);
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  const std::string &P = G->Program;
  size_t OwnText = std::string::npos;
  for (const Range &R : textRanges(P))
    if (R.Begin <= Own && Own < R.End)
      OwnText =
          P.find("::metacu::detail::text(" + std::to_string(R.Begin) + ", ");
  ASSERT_NE(OwnText, std::string::npos) << P;
  EXPECT_EQ(G->HeadersEnd, P.rfind("static bool __metacu_run_", OwnText)) << P;
  EXPECT_LT(G->HeadersEnd, G->StartEnd) << P;
}

} // namespace

namespace {

TEST_F(LowerTest, LongFilesAreLoweredIntoManyBoundedRuns) {
  // One function per run of namespace-level code would make the generator
  // one huge function, which the JIT compiles in more than linear time.
  std::string Code = "@meta int n = 1;\n";
  for (int I = 0; I < 3000; ++I)
    Code +=
        "__device__ int f" + std::to_string(I) + "(int x) { return x + n; }\n";
  Generator G = lowerOk(Code);
  llvm::StringRef P = G.Program;
  size_t Runs = 0, Largest = 0, Start = P.find("__metacu_run_");
  while (Start != llvm::StringRef::npos) {
    size_t Next = P.find("__metacu_run_", Start + 1);
    Largest = std::max(
        Largest, (Next == llvm::StringRef::npos ? P.size() : Next) - Start);
    ++Runs;
    Start = Next;
  }
  EXPECT_GT(Runs, 10u);
  EXPECT_LT(Largest, 64u << 10);
  // Every function body is still there, in order.
  EXPECT_NE(P.find("text(" + std::to_string(Code.rfind("{ return") + 1) + ", "),
            llvm::StringRef::npos);
}

TEST_F(LowerTest, BlocksOfPlainCodeAreCopiedWithTheTextAroundThem) {
  std::string Code = "@meta int n = 1;\n"
                     "__device__ int f(int x) { if (x) { return x; } }\n"
                     "__device__ int g(int x) { return x + n; }\n";
  Generator G = lowerOk(Code);
  // f's body holds nothing to lower: one text() from after the meta
  // statement to g's brace.
  unsigned FBegin = Code.find("__device__ int f");
  unsigned GBrace = Code.find("{ return x + n");
  EXPECT_NE(G.Program.find("text(" + std::to_string(FBegin) + ", " +
                           std::to_string(GBrace + 1) + ")"),
            std::string::npos)
      << G.Program;
  // g's body uses a meta name: lowered on its own.
  EXPECT_NE(G.Program.find("value("), std::string::npos);
}

} // namespace
