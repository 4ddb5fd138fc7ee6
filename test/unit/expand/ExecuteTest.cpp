//===- ExecuteTest.cpp - Running the generator, end to end ----------------===//
//
// Each test runs the whole pipeline (scan, slice, lower, execute, emit) on a
// small input; a run compiles the generator library, so tests are few and
// each checks several things.
//
//===----------------------------------------------------------------------===//
#include "expand/Execute.h"
#include "TempDir.h"
#include "expand/Emit.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include <gtest/gtest.h>
#include <memory>
#include <optional>

using namespace metacu;

namespace {

class ExecuteTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  }

  /// Runs the pipeline on \p Code as k.cu. On failure returns nothing and
  /// leaves the errors, printed, in Error; what execute() itself wrote to
  /// stderr is in Stderr.
  std::optional<std::string> run(std::string Code,
                                 llvm::StringRef ArchSpec = "80") {
    File = std::make_unique<SourceFile>(Tmp.path("k.cu"), std::move(Code));
    auto Archs = ArchList::parse(ArchSpec);
    EXPECT_TRUE(bool(Archs));
    if (!Archs)
      return std::nullopt;
    auto S = scan(*File);
    if (!S) {
      ADD_FAILURE() << llvm::toString(S.takeError());
      return std::nullopt;
    }
    HostSliceOptions SO;
    SO.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    SO.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    auto Slice = sliceHost(*File, *S, metaIdentifiers(*S), SO);
    if (!Slice) {
      ADD_FAILURE() << llvm::toString(Slice.takeError());
      return std::nullopt;
    }
    auto G = lower(*File, *S, *Slice, *Archs);
    if (!G) {
      ADD_FAILURE() << llvm::toString(G.takeError());
      return std::nullopt;
    }
    ExecuteOptions EO;
    EO.Toolkit = SO.Toolkit;
    EO.RuntimeInclude = SO.RuntimeInclude;
    EO.KeepInterpreter = Keep;
    ::testing::internal::CaptureStderr();
    auto X = execute(*File, *G, *Archs, EO);
    Stderr = ::testing::internal::GetCapturedStderr();
    if (X)
      Compiled = X->Compiled;
    if (!X) {
      llvm::raw_string_ostream OS(Error);
      printErrors(OS, locate(*File, X.takeError()));
      return std::nullopt;
    }
    return emitOutput(*File, *Archs, *X, {"k.gen.cu"});
  }

  unsigned offsetOf(llvm::StringRef Needle) const {
    size_t P = File->text().find(Needle);
    EXPECT_NE(P, llvm::StringRef::npos) << Needle.str();
    return P;
  }
  /// "path:line:col: error: " for \p Needle's position in the input.
  std::string errorAt(llvm::StringRef Needle) const {
    LineCol LC = File->lineCol(offsetOf(Needle));
    return File->path().str() + ":" + std::to_string(LC.Line) + ":" +
           std::to_string(LC.Col) + ": error: ";
  }

  TempDir Tmp;
  std::unique_ptr<SourceFile> File;
  std::string Stderr, Error;
  /// ExecuteOptions::KeepInterpreter.
  bool Keep = false;
  /// Expansion::Compiled of the last run that expanded.
  Expansion::Compilation Compiled = Expansion::Compilation::Afresh;
};

TEST_F(ExecuteTest, AKeptInterpreterRunsEachProgramAsIfStartedAfresh) {
  // One library and prelude: the runs after the first reuse the
  // interpreter it started, which must hold none of the programs before
  // (a second 'struct tile' would be a redefinition).
  Keep = true;
  auto First =
      run("struct tile { int n = 1; };\n@meta tile t;\nint a = t.n;\n");
  ASSERT_TRUE(First) << Error;
  EXPECT_NE(First->find("int a = 1;"), std::string::npos) << *First;
  auto Second =
      run("struct tile { int n = 2; };\n@meta tile t;\nint a = t.n;\n");
  ASSERT_TRUE(Second) << Error;
  EXPECT_NE(Second->find("int a = 2;"), std::string::npos) << *Second;
  // Errors come back from the copy that compiled the program, placed.
  EXPECT_FALSE(run("struct tile { int n = 2; };\n@meta tile t;\n"
                   "@meta static_assert(t.n == 1, \"n is not 1\");\n"));
  EXPECT_NE(Error.find(errorAt("@meta static_assert") +
                       "static assertion failed: n is not 1"),
            std::string::npos)
      << Error;
}

TEST_F(ExecuteTest, AKeptInterpreterCompilesAProgramsStartOnce) {
  // The program's start (before the first meta construct: headers,
  // ordinary declarations meta code names) is compiled once, in a copy of
  // the kept interpreter kept beside it, and kept while edits of meta code
  // leave it as it was: the expansion is what a fresh run gives, an error
  // at the user's line and column (a thrown error carries the program's
  // line). An edit of the start below its headers is compiled in a new
  // copy of the copy that holds them (included once), which keeps the new
  // start; an edit of the headers, in a new copy of the kept interpreter,
  // as started (no interpreter started again), which keeps the new
  // headers, included again.
  Tmp.write("one.h", "#pragma once\ninline int one() { return 1; }\n");
  Tmp.write("two.h", "#pragma once\ninline int two() { return 2; }\n");
  auto Source = [](llvm::StringRef Before, llvm::StringRef N) {
    return ("#include \"one.h\"\n"
            "struct tile { int n = 1; };\n"
            "int before = " +
            Before +
            ";\n"
            "@meta tile t{one()};\n"
            "@meta int checked(int x) {\n"
            "  if (x > 2)\n"
            "    metacu::fail(\"x is \" + std::to_string(x));\n"
            "  return x;\n"
            "}\n"
            "int a = t.n + @(checked(" +
            N + "));\n")
        .str();
  };
  // The expansion, or the errors.
  auto Run = [&](const std::string &Code, bool KeepIt) {
    Keep = KeepIt;
    Error.clear();
    auto Out = run(Code);
    return Out ? *Out : "error: " + Error;
  };
  auto Fresh = [&](const std::string &Code) { return Run(Code, false); };
  auto Kept = [&](const std::string &Code) { return Run(Code, true); };
  std::string Good = Source("0", "2"), Failing = Source("0", "3"),
              Moved = Source("10", "1");
  std::string FreshGood = Fresh(Good);
  EXPECT_NE(FreshGood.find("int a = 1 + 2;"), std::string::npos) << FreshGood;

  using How = Expansion::Compilation;
  EXPECT_EQ(Kept(Good), FreshGood);
  EXPECT_EQ(Compiled, How::Afresh);
  std::string Spaced = Good;
  Spaced.replace(Spaced.find("int a"), 5, "int  a");
  EXPECT_NE(Kept(Spaced).find("int  a = 1 + 2;"), std::string::npos);
  EXPECT_EQ(Compiled, How::FromKeptStart);
  std::string Failed = Kept(Failing);
  EXPECT_NE(Failed.find(errorAt("metacu::fail") + "x is 3"), std::string::npos)
      << Failed;
  EXPECT_EQ(Kept(Good), FreshGood);
  EXPECT_EQ(Compiled, How::FromKeptStart);
  // The start edited below its headers: its offsets move.
  std::string Out = Kept(Moved);
  EXPECT_EQ(Compiled, How::KeepingItsStartOnKeptHeaders);
  EXPECT_NE(Out.find("int before = 10;"), std::string::npos) << Out;
  EXPECT_NE(Out.find("int a = 1 + 1;"), std::string::npos) << Out;
  EXPECT_EQ(Kept(Moved), Out);
  EXPECT_EQ(Compiled, How::FromKeptStart);
  Failed = Kept(Source("10", "3"));
  EXPECT_NE(Failed.find(errorAt("metacu::fail") + "x is 3"), std::string::npos)
      << Failed;
  // The headers edited.
  std::string Included = "#include \"two.h\"\n" + Moved;
  Out = Kept(Included);
  EXPECT_EQ(Compiled, How::KeepingItsStart);
  EXPECT_EQ(Out, Fresh(Included));
  EXPECT_EQ(Kept(Good), FreshGood);
  EXPECT_EQ(Compiled, How::KeepingItsStart);
}

TEST_F(ExecuteTest, AKeptInterpreterCompilesTheHeadersOfAProgramOnce) {
  // The first meta construct is in a function, so the program has no
  // start: the headers before it are compiled once all the same.
  Tmp.write("one.h", "#pragma once\ninline int one() { return 1; }\n");
  auto Source = [](llvm::StringRef N) {
    return ("#include \"one.h\"\n"
            "__global__ void k(int *p) {\n"
            "  @meta int u = one() + " +
            N + ";\n  p[0] = @(u);\n}\n")
        .str();
  };
  using How = Expansion::Compilation;
  Keep = true;
  auto First = run(Source("1"));
  ASSERT_TRUE(First) << Error;
  EXPECT_EQ(Compiled, How::Afresh);
  auto Second = run(Source("2"));
  ASSERT_TRUE(Second) << Error;
  EXPECT_EQ(Compiled, How::FromKeptStart);
  EXPECT_NE(Second->find("p[0] = 3;"), std::string::npos) << *Second;
}

TEST_F(ExecuteTest, AKeptInterpretersLibraryCodeNamesNoTypeOfTheUsers) {
  // The kept interpreter has the library's code compiled once
  // (metacu/detail/kept_code.h), which every program then shares: only
  // code for the library's own types, so a program's std::vector of its
  // 'tile' is its own, compiled for that 'tile', whatever the one before
  // was. The library's JSON and tuning code the programs share.
  Keep = true;
  const char *Uses =
      "@meta std::vector<tile> ts(3);\n"
      "@meta metacu::json j = metacu::json::parse(\"{\\\"k\\\": 5}\", \"j\");\n"
      "@meta metacu::tune_space s = metacu::tune_space(\"s\").param(\"b\", "
      "{8, 16});\n"
      "int a = ts[2].n + j[\"k\"].as_int() + "
      "int(s.parameter_names().size());\n";
  auto First = run(std::string("struct tile { int n = 1; };\n") + Uses);
  ASSERT_TRUE(First) << Error;
  EXPECT_NE(First->find("int a = 1 + 5 + int(1ul);"), std::string::npos)
      << *First;
  auto Second =
      run(std::string("struct tile { long long pad[5] = {}; int n = 2; };\n") +
          Uses);
  ASSERT_TRUE(Second) << Error;
  EXPECT_NE(Second->find("int a = 2 + 5 + int(1ul);"), std::string::npos)
      << *Second;
}

TEST_F(ExecuteTest, TheLibrarysKeptCodeCompilesAgainstTheLibrary) {
  // A kept interpreter whose kept code does not compile runs every program
  // as if none were kept, silently slower: here it must compile, in a
  // program that includes a copy (metacu's own headers are never included
  // by the program), its function named, not run.
  auto Kept = llvm::MemoryBuffer::getFile(METACU_SOURCE_RUNTIME_INCLUDE
                                          "/metacu/detail/kept_code.h");
  ASSERT_TRUE(bool(Kept));
  Tmp.write("kept.h", (*Kept)->getBuffer());
  auto Out = run("#include \"kept.h\"\n"
                 "@meta bool named = &__metacu_kept_code != nullptr;\n"
                 "int a = named;\n");
  ASSERT_TRUE(Out) << Error;
  EXPECT_NE(Out->find("int a = true;"), std::string::npos) << *Out;
}

TEST_F(ExecuteTest, MetaValuesAreSpelledAsLiteralsOfTheirExactType) {
  auto Out = run(R"cu(#include <climits>
#include <cmath>
#include <map>
#include <string>
enum class rounding_t { fast, exact };
enum color { red, green };
namespace ns {
enum class inner_t { p, q };
enum plain_t { u1, u2 };
struct pt { int x; int y; };
}
struct tile_t { int rows; unsigned cols; rounding_t mode; };
struct outer_t { tile_t t; float scale; const char *name; ns::pt where; };
const std::map<int, int> table { {80, 3} };
@meta int i = -42;
@meta int imin = INT_MIN;
@meta int ipos = 7;
@meta unsigned u = 4096u;
@meta long l = -5l;
@meta unsigned long ul = 6ul;
@meta long long ll = 1ll << 40;
@meta long long llmin = LLONG_MIN;
@meta unsigned long long ull = ~0ull;
@meta short sh = -7;
@meta signed char sc = -3;
@meta unsigned char uc = 200;
@meta char c1 = 'a';
@meta char c2 = '\'';
@meta char c3 = '\n';
@meta char c4 = '\\';
@meta bool bt = true;
@meta bool bf = false;
@meta float f = 0.1f;
@meta float f1 = 1.0f;
@meta double d = -1.0 / 3.0;
@meta double dbig = 1e300;
@meta double nz = -0.0;
@meta float fnz = -0.0f;
@meta float finf = INFINITY;
@meta double dninf = -HUGE_VAL;
@meta double dnan = NAN;
@meta rounding_t m = rounding_t::exact;
@meta color col = green;
@meta ns::inner_t in = ns::inner_t::q;
@meta ns::plain_t pl = ns::u2;
@meta std::string s = "say \"hi\"\n\t\\\x01";
@meta const char *cs = "ptr";
@meta tile_t tile { 16, 32u, rounding_t::fast };
@meta outer_t o { {1, 2u, rounding_t::exact}, 0.5f, "nm", {3, -4} };
@meta int arr[3] = {10, 20, 30};
@meta int fromtable = table.at(80);
__global__ void k() {
  v_i = i;
  v_imin = imin;
  v_ipos = ipos;
  v_u = u;
  v_l = l;
  v_ul = ul;
  v_ll = ll;
  v_llmin = llmin;
  v_ull = ull;
  v_sh = sh;
  v_sc = sc;
  v_uc = uc;
  v_c1 = c1;
  v_c2 = c2;
  v_c3 = c3;
  v_c4 = c4;
  v_bt = bt;
  v_bf = bf;
  v_f = f;
  v_f1 = f1;
  v_d = d;
  v_dbig = dbig;
  v_nz = nz;
  v_fnz = fnz;
  v_finf = finf;
  v_dninf = dninf;
  v_dnan = dnan;
  v_m = m;
  v_col = col;
  v_in = in;
  v_pl = pl;
  v_s = s;
  v_cs = cs;
  v_tile = tile;
  v_o = o;
  v_chain = arr[1] + tile.rows + o.t.cols;
  v_table = fromtable;
  int @("load_" + std::to_string(ipos)) = @(ipos + 1);
}
)cu");
  ASSERT_TRUE(Out) << Error << Stderr;
  const std::pair<const char *, const char *> Expected[] = {
      {"v_i", "(-42)"},
      {"v_imin", "(-2147483647 - 1)"},
      {"v_ipos", "7"},
      {"v_u", "4096u"},
      {"v_l", "(-5l)"},
      {"v_ul", "6ul"},
      {"v_ll", "1099511627776ll"},
      {"v_llmin", "(-9223372036854775807ll - 1)"},
      {"v_ull", "18446744073709551615ull"},
      {"v_sh", "static_cast<short>((-7))"},
      {"v_sc", "static_cast<signed char>((-3))"},
      {"v_uc", "static_cast<unsigned char>(200)"},
      {"v_c1", "'a'"},
      {"v_c2", "'\\''"},
      {"v_c3", "'\\n'"},
      {"v_c4", "'\\\\'"},
      {"v_bt", "true"},
      {"v_bf", "false"},
      {"v_f", "0.1f"},
      {"v_f1", "1.0f"},
      {"v_d", "(-0.3333333333333333)"},
      {"v_dbig", "1e+300"},
      {"v_nz", "(-0.0)"},
      {"v_fnz", "(-0.0f)"},
      {"v_finf", "__builtin_huge_valf()"},
      {"v_dninf", "(-__builtin_huge_val())"},
      {"v_dnan", "__builtin_nan(\"\")"},
      {"v_m", "rounding_t::exact"},
      {"v_col", "green"},
      {"v_in", "ns::inner_t::q"},
      {"v_pl", "ns::u2"},
      {"v_s", "\"say \\\"hi\\\"\\n\\t\\\\\\001\""},
      {"v_cs", "\"ptr\""},
      {"v_tile", "tile_t{16, 32u, rounding_t::fast}"},
      {"v_o", "outer_t{tile_t{1, 2u, rounding_t::exact}, 0.5f, \"nm\", "
              "ns::pt{3, (-4)}}"},
      {"v_chain", "20 + 16 + 2u"},
      {"v_table", "3"},
  };
  for (auto [Var, Spelling] : Expected)
    EXPECT_NE(Out->find("  " + std::string(Var) + " = " + Spelling + ";\n"),
              std::string::npos)
        << Var << " should be " << Spelling << " in:\n"
        << *Out;
  EXPECT_NE(Out->find("  int load_7 = 8;\n"), std::string::npos) << *Out;
  EXPECT_EQ(Out->find("@meta"), std::string::npos) << *Out;
  EXPECT_EQ(Out->find("@("), std::string::npos) << *Out;
  // Ordinary declarations stay; the meta ones are gone.
  EXPECT_NE(Out->find("\nstruct tile_t {"), std::string::npos) << *Out;
  EXPECT_EQ(Out->find("= -42;"), std::string::npos) << *Out;
}

TEST_F(ExecuteTest, CodegenBranchesBecomeArchConditionals) {
  auto Out = run("__global__ void k(int *p) {\n"
                 "  @meta for (int j = 0; j < 2; ++j)\n"
                 "    p[j] = j;\n"
                 "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {\n"
                 "    p[2] = 9;\n"
                 "  } else {\n"
                 "    p[2] = 1;\n"
                 "  }\n"
                 "}\n",
                 "75,90");
  ASSERT_TRUE(Out) << Error << Stderr;
  // One block per iteration, at the loop's indentation.
  EXPECT_NE(Out->find("\n  { p[0] = 0; }\n"), std::string::npos) << *Out;
  EXPECT_NE(Out->find("\n  { p[1] = 1; }\n"), std::string::npos) << *Out;
  // The body, after the prelude's own #if ladder (__nvvm_arch's value).
  size_t Body = Out->find("\n#line ");
  ASSERT_NE(Body, std::string::npos) << *Out;
  size_t If =
      Out->find("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900\n", Body);
  size_t Nine = Out->find("p[2] = 9;");
  size_t Else = Out->find("#else\n", Body);
  size_t One = Out->find("p[2] = 1;");
  size_t End = Out->find("#endif\n", One);
  ASSERT_NE(If, std::string::npos) << *Out;
  ASSERT_NE(Else, std::string::npos) << *Out;
  ASSERT_NE(End, std::string::npos) << *Out;
  EXPECT_LT(If, Nine);
  EXPECT_LT(Nine, Else);
  EXPECT_LT(Else, One);
  // Branches that declare nothing lose their braces (BranchBraces.h); each
  // line keeps its place, so the else branch is line 7 with no '#line'.
  EXPECT_NE(Out->find("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900\n"
                      "    p[2] = 9;\n#else\n    p[2] = 1;\n#endif\n"),
            std::string::npos)
      << *Out;
}

TEST_F(ExecuteTest, FeatureSetVariantIsItsOwnPass) {
  // sm_90a gets its own guard, on the arch-specific feature macro.
  auto Out = run("__global__ void k(int *p) {\n"
                 "  @meta for enum (auto a : nvvm_arch_t) {\n"
                 "    if codegen (__nvvm_arch == a) {\n"
                 "      p[0] = @(metacu::enum_name(a).size());\n"
                 "    }\n"
                 "  }\n"
                 "}\n",
                 "80,90a");
  ASSERT_TRUE(Out) << Error << Stderr;
  // In the body, not in the prelude's definition of __nvvm_arch.
  size_t Body = Out->find("\n#line ");
  ASSERT_NE(Body, std::string::npos) << *Out;
  EXPECT_NE(
      Out->find("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800\n", Body),
      std::string::npos)
      << *Out;
  EXPECT_NE(Out->find("#if defined(__CUDA_ARCH__) && "
                      "(defined(__CUDA_ARCH_SPECIFIC__) && "
                      "__CUDA_ARCH_SPECIFIC__ == 900)\n",
                      Body),
            std::string::npos)
      << *Out;
  // "sm_80" and "sm_90a": the enumerator names are the targets'.
  EXPECT_NE(Out->find("p[0] = 5ul;"), std::string::npos) << *Out;
  EXPECT_NE(Out->find("p[0] = 6ul;"), std::string::npos) << *Out;
}

TEST_F(ExecuteTest, ExceptionIsReportedAtItsMetaStatement) {
  auto Out = run("#include <map>\n"
                 "const std::map<int, int> table { {80, 1} };\n"
                 "__global__ void k(int *x) {\n"
                 "  @meta int n = table.at(75);\n"
                 "  x[0] = n;\n"
                 "}\n");
  ASSERT_FALSE(Out);
  // The returned error carries the message; nothing was printed.
  EXPECT_EQ(Stderr, "");
  EXPECT_NE(Error.find(errorAt("@meta int n") +
                       "uncaught exception in meta code: map::at"),
            std::string::npos)
      << Error;
  EXPECT_NE(Error.find("  @meta int n = table.at(75);\n  ^\n"),
            std::string::npos)
      << Error;
}

TEST_F(ExecuteTest, FailIsReportedAtItsCall) {
  auto Out = run("@meta int checked(int n) {\n"
                 "  if (n > 1024)\n"
                 "    metacu::fail(\"block size \" + std::to_string(n) + "
                 "\" exceeds 1024\");\n"
                 "  return n;\n"
                 "}\n"
                 "__global__ void k(int *x) { x[0] = checked(2048); }\n");
  ASSERT_FALSE(Out);
  EXPECT_NE(
      Error.find(errorAt("metacu::fail") + "block size 2048 exceeds 1024"),
      std::string::npos)
      << Error;
}

TEST_F(ExecuteTest, CompileErrorInMetaCodeIsMappedToTheInput) {
  auto Out = run("__global__ void k(int *x) {\n"
                 "  @meta int n = undeclared_thing + 1;\n"
                 "  x[0] = n;\n"
                 "}\n");
  ASSERT_FALSE(Out);
  EXPECT_NE(Error.find(errorAt("undeclared_thing") +
                       "use of undeclared identifier 'undeclared_thing'"),
            std::string::npos)
      << Error;
}

} // namespace
