//===- PreprocessorPassTest.cpp - What one pass records -------------------===//
#include "migrate/PreprocessorPass.h"
#include "AuditFixtures.h"
#include "migrate/SystemHeaderDirectives.h"

#include "gtest/gtest.h"
#include <optional>

using namespace metacu;

namespace {

class PreprocessorPassTest : public PassTest {
protected:
  /// Whether the system header \p H is still replayed from its scan, not
  /// lexed in full (SystemHeaderDirectives.h).
  bool replayed(const std::string &H) {
    auto File = Files->getFileRef(H);
    EXPECT_TRUE(bool(File)) << H;
    return File && SystemHeaderScans::shared().scan(*File, TempDir::read(H));
  }
};

TEST_F(PreprocessorPassTest, RecordsTheBranchEachPassCompiles) {
  run(R"(__device__ int f(int x) {
#if __CUDA_ARCH__ >= 800
  x += 2;
#elif defined(__CUDA_ARCH__)
  x += 1;
#else
  x = 0;
#endif
  return x;
}
)",
      {0, 75, 90});
  const Group &G = groupAt(2);
  ASSERT_EQ(G.Dirs.size(), 4u);
  EXPECT_EQ(G.DirIsElse, (std::vector<bool>{false, false, true, false}));
  EXPECT_EQ(G.Taken[0], 2);
  EXPECT_EQ(G.Taken[passIndex(75)], 1);
  EXPECT_EQ(G.Taken[passIndex(90)], 0);
  EXPECT_EQ(G.Taken[passIndex(80)], Unreached);
  EXPECT_TRUE(G.Mentions);
  EXPECT_TRUE(G.ValueCompared);
  EXPECT_TRUE(G.BadValue.empty());
}

TEST_F(PreprocessorPassTest, APassThatCompilesNoBranchSaysSo) {
  run("#if __CUDA_ARCH__ >= 800\nint x;\n#endif\n", {0, 80});
  EXPECT_EQ(groupAt(1).Taken[0], NoBranch);
  EXPECT_EQ(groupAt(1).Taken[passIndex(80)], 0);
}

TEST_F(PreprocessorPassTest, RecordsTheNamesEachConditionTests) {
  // A named constant of the user's tests nothing; a value chosen under
  // '#ifdef GGML_USE_HIP' tests that; an include guard's name is no
  // choice of the macros it guards; a condition no pass evaluates (after
  // the branch every pass takes) is read all the same.
  run(R"(#ifndef K_GUARD
#define K_GUARD
#define CC_VOLTA 700
#ifdef GGML_USE_HIP
#define WARP 64
#else
#define WARP 32
#endif
#endif
__host__ __device__ int f(int x) {
#if __CUDA_ARCH__ >= CC_VOLTA
  x += 1;
#elif WARP == 64 || defined(__GNUC__)
  x += 2;
#elif UNDEFINED_NAME
  x += 3;
#endif
  return x;
}
)",
      {0, 80});
  const Group &G = groupAt(11);
  ASSERT_EQ(G.Dirs.size(), 4u);
  auto Tests = [&](unsigned I) {
    auto It = G.Tests.find(G.Dirs[I]);
    return It == G.Tests.end() ? std::set<std::string>() : It->second;
  };
  EXPECT_EQ(Tests(0), (std::set<std::string>{"__CUDA_ARCH__"}));
  EXPECT_EQ(Tests(1), (std::set<std::string>{"GGML_USE_HIP", "__GNUC__"}));
  EXPECT_EQ(Tests(2), (std::set<std::string>{"UNDEFINED_NAME"}));
  EXPECT_EQ(G.Taken[0], 1);
}

TEST_F(PreprocessorPassTest, RecordsWhatDerivedMacrosAreDefinedUnder) {
  // TURING is defined where GGML_USE_HIP is not: a test of it is a test of
  // that too (Group::Under). __GNUC__ is a macro here; AMD_MFMA is not.
  run(R"(#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 750
#define TURING
#endif
__device__ int f(int x) {
#if defined(AMD_MFMA) || defined(TURING) || defined(__GNUC__)
  x += 1;
#endif
  return x;
}
)",
      {0, 80});
  EXPECT_EQ(groupAt(5).Under,
            (std::set<std::string>{"GGML_USE_HIP", "__CUDA_ARCH__"}));
  EXPECT_TRUE(F.DefinedTests.count("__GNUC__"));
  EXPECT_TRUE(F.DefinedTests.count("TURING"));
  EXPECT_FALSE(F.DefinedTests.count("AMD_MFMA"));
  EXPECT_FALSE(F.DefinedTests.count("GGML_USE_HIP"));
}

TEST_F(PreprocessorPassTest, RecordsTheValueATestedNameHasInEveryPass) {
  // nvcc defines __CUDACC__ as 1 in every pass; TURING is defined with no
  // body, and only where the architecture is 750 or more.
  run(R"(#if __CUDA_ARCH__ >= 750
#define TURING
#endif
__device__ int f(int x) {
#if __CUDACC__ >= 1 && defined(TURING) && __CUDA_ARCH__ >= 800
  x += 1;
#endif
  return x;
}
)",
      {0, 80});
  EXPECT_EQ(F.TestedValues.at("__CUDACC__"), "1");
  EXPECT_EQ(F.TestedValues.at("TURING"), "");
}

TEST_F(PreprocessorPassTest, AMacroSomePassesLackIsDerivedWhereUsedBare) {
  // No callback reports the name where no macro has it: the condition's
  // own names are compared between passes all the same.
  run(R"(#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define CLUSTER_ENABLED 1
#endif
__device__ int f(int x) {
#if CLUSTER_ENABLED
  x += 1;
#endif
  return x;
}
)",
      {0, 80, 90});
  EXPECT_TRUE(F.Derived.contains("CLUSTER_ENABLED"));
  EXPECT_TRUE(groupAt(5).Tests.begin()->second.count("CLUSTER_ENABLED"));
}

TEST_F(PreprocessorPassTest, MacrosThatAliasArchAreFollowed) {
  run(R"(#define ARCH __CUDA_ARCH__
#define NEWER(v) (ARCH >= (v))
#if NEWER(800)
int x;
#endif
)",
      {0, 80});
  EXPECT_EQ(otherAt(1), SiteKind::MacroAlias);
  EXPECT_EQ(otherAt(2), SiteKind::MacroAlias);
  EXPECT_TRUE(F.Aliases.contains("ARCH"));
  const Group &G = groupAt(3);
  EXPECT_TRUE(G.Mentions);
  EXPECT_TRUE(G.Via.count("NEWER"));
  EXPECT_EQ(G.Taken[0], NoBranch);
  EXPECT_EQ(G.Taken[passIndex(80)], 0);
}

TEST_F(PreprocessorPassTest, FeatureMacrosDefinedUnderArchAreDerived) {
  run(R"(#if __CUDA_ARCH__ >= 800
#define HAS_FAST 1
#endif
__device__ int f(int x) {
#ifdef HAS_FAST
  return x;
#endif
  return 0;
}
)",
      {0, 80});
  EXPECT_TRUE(F.Derived.contains("HAS_FAST"));
  const Group &G = groupAt(5);
  EXPECT_TRUE(G.Mentions);
  EXPECT_EQ(G.Via, (std::set<std::string>{"HAS_FAST"}));
  EXPECT_FALSE(G.ValueCompared);
  EXPECT_EQ(G.Taken[0], NoBranch);
  EXPECT_EQ(G.Taken[passIndex(80)], 0);
}

TEST_F(PreprocessorPassTest, ValueUsesAndRedefinitions) {
  run(R"(__device__ int v() {
  return __CUDA_ARCH__;
}
#undef __CUDA_ARCH__
)",
      {80});
  EXPECT_EQ(otherAt(2), SiteKind::ValueUse);
  EXPECT_EQ(otherAt(4), SiteKind::Redefinition);
}

TEST_F(PreprocessorPassTest, AValueUseKnowsItsSpellingAndItsConditional) {
  run(R"(#define ARCH __CUDA_ARCH__
__device__ int v() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__ + ARCH;
#endif
}
)",
      {80});
  std::vector<const OtherSite *> Uses;
  for (auto &[K, O] : F.Others)
    if (O.Kind == SiteKind::ValueUse)
      Uses.push_back(&O);
  ASSERT_EQ(Uses.size(), 2u);
  EXPECT_TRUE(Uses[0]->Direct);
  EXPECT_FALSE(Uses[1]->Direct);
  EXPECT_EQ(Uses[1]->Via, "ARCH");
  for (const OtherSite *O : Uses) {
    ASSERT_TRUE(O->Parent.has_value());
    EXPECT_EQ(lineOf(O->Parent->second), 3u);
  }
}

TEST_F(PreprocessorPassTest, LiteralsThatAreNoArchitectureAreNoted) {
  run(R"(#if __CUDA_ARCH__ >= 80
#endif
#if __CUDA_ARCH__ >= 800
#endif
#if 700 <= __CUDA_ARCH__
#endif
#if __CUDA_ARCH__ == 0
#endif
)",
      {0, 80});
  EXPECT_EQ(groupAt(1).BadValue, "80");
  EXPECT_EQ(groupAt(3).BadValue, "");
  EXPECT_EQ(groupAt(5).BadValue, "");
  EXPECT_EQ(groupAt(7).BadValue, "");
}

TEST_F(PreprocessorPassTest, ArchSpecificFeatureMacrosAreNoted) {
  run(R"(#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#endif
#ifdef __CUDA_ARCH_SPECIFIC__
#endif
#if __CUDA_ARCH__ >= 900
#endif
)",
      {0, 90});
  EXPECT_TRUE(groupAt(1).ArchFeature);
  EXPECT_TRUE(groupAt(3).ArchFeature);
  EXPECT_FALSE(groupAt(5).ArchFeature);
}

TEST_F(PreprocessorPassTest, OnlyTheUsersFilesAreRecorded) {
  std::string Header = Tmp.write("h.cuh", R"(#pragma once
#if __CUDA_ARCH__ >= 800
#define WIDE 1
#endif
)");
  run(R"(#ifdef __CUDA_ARCH__
#include "h.cuh"
#endif
)",
      {0, 80});
  EXPECT_EQ(F.FileOrder, (std::vector<std::string>{Path, Header}));
  EXPECT_TRUE(F.Buffers[Header].find("#define WIDE") != std::string::npos);
  EXPECT_EQ(F.Includes.size(), 1u);
  EXPECT_EQ(F.Defines.size(), 1u);
  // The header's conditional knows the one around its #include.
  for (auto &[K, G] : F.Groups)
    if (K.first == Header) {
      ASSERT_TRUE(G.Parent.has_value());
      EXPECT_EQ(G.Parent->first, Path);
      EXPECT_EQ(lineOf(G.Parent->second), 1u);
    }
}

// ggml-common.h is included twice, its second reading with the macro the
// first defined: each reading is compared with the same reading of the
// other passes, so the macro is no derived one and its test no site.
TEST_F(PreprocessorPassTest, AHeaderReadTwiceComparesEachReading) {
  // No include guard around the whole file: Clang reads it twice.
  Tmp.write("twice.h", R"(#ifndef TWICE_DECL
#define TWICE_DECL
#endif
extern int twice;
)");
  run(R"(#include "twice.h"
#include "twice.h"
#if __CUDA_ARCH__ >= 800
#define FAST 1
#endif
#ifdef FAST
int f;
#endif
)",
      {0, 75, 80});
  EXPECT_FALSE(F.Derived.contains("TWICE_DECL"));
  EXPECT_TRUE(F.Derived.contains("FAST"));
  for (auto &[K, G] : F.Groups)
    if (K.first != Path)
      EXPECT_FALSE(G.Mentions);
  EXPECT_TRUE(groupAt(6).Mentions);
}

TEST_F(PreprocessorPassTest, TheOrdinaryCodesStandardIsHonoured) {
  const char *Code = R"(#if __cplusplus >= 202002L
#if __CUDA_ARCH__ >= 800
#endif
#endif
)";
  run(Code, {0});
  EXPECT_EQ(F.Groups.size(), 1u) << "C++17 does not reach line 2";
  F = Facts();
  CompileFlags Cxx20;
  Cxx20.Standard = "c++20";
  run(Code, {0}, /*Parse=*/false, Cxx20);
  EXPECT_EQ(groupAt(2).Taken[0], NoBranch);
}

TEST_F(PreprocessorPassTest, TheUsersFlagsAreHonoured) {
  CompileFlags Flags;
  Flags.Args = {"-DFAST_PATH"};
  run(R"(#ifdef FAST_PATH
#if __CUDA_ARCH__ >= 800
#endif
#endif
)",
      {80}, /*Parse=*/false, Flags);
  EXPECT_EQ(groupAt(2).Taken[passIndex(80)], 0);
}

TEST_F(PreprocessorPassTest, AMissingHeaderIsFatalAtItsInclude) {
  std::string Path = Tmp.write("bad.cu", "int x;\n#include <nope/missing.h>\n");
  PassSources Sources(*Files);
  llvm::Error Err = runPass(Path, CudaToolkit::find(METACU_CUDA_ROOT), {}, 0,
                            false, F, Sources);
  std::string Msg = llvm::toString(std::move(Err));
  EXPECT_NE(Msg.find("bad.cu:2:10: error: 'nope/missing.h' file not found"),
            std::string::npos)
      << Msg;
}

TEST_F(PreprocessorPassTest, APreprocessorErrorStopsThePassAtItsPlace) {
  for (llvm::StringRef Code :
       {"int x;\n#error stop\n", "#if 1\n#else\n#else\n#endif\n",
        "#if 1\nint x;\n", "#include \"k.cu\"\n"}) {
    Facts Fresh;
    std::string Path = Tmp.write("k.cu", Code);
    PassSources Sources(*Files);
    llvm::Error Err = runPass(Path, CudaToolkit::find(METACU_CUDA_ROOT), {}, 0,
                              false, Fresh, Sources);
    std::string Msg = llvm::toString(std::move(Err));
    EXPECT_NE(Msg.find("k.cu:"), std::string::npos) << Code.str();
    EXPECT_NE(Msg.find(": error: "), std::string::npos) << Msg;
  }
}

TEST_F(PreprocessorPassTest, AnErrorOfOneArchitectureNamesIt) {
  std::string Path = Tmp.write(
      "k.cu", "#if __CUDA_ARCH__ < 800\n#error needs sm_80\n#endif\n");
  PassSources Sources(*Files);
  llvm::Error Err = runPass(Path, CudaToolkit::find(METACU_CUDA_ROOT), {},
                            passIndex(75), false, F, Sources);
  EXPECT_EQ(llvm::toString(std::move(Err)).substr(Path.size()),
            ":2:2: error: needs sm_80 (compiling for sm_75)");
}

TEST_F(PreprocessorPassTest, ADirectiveInsideAMacrosArgumentsIsNoted) {
  run(R"(#define CALL(f, x) f(x)
__device__ int g(int x) { return x; }
__device__ int f(int x) {
  int y = CALL(g,
#if __CUDA_ARCH__ >= 800
    x * 2
#else
    x
#endif
  );
  return CALL(g, __CUDA_ARCH__);
}
)",
      {0, 80});
  ASSERT_EQ(F.ArgumentLists.size(), 1u);
  const auto &[Begin, Where] = *F.ArgumentLists.begin();
  EXPECT_EQ(lineOf(Begin.second), 4u);
  EXPECT_EQ(lineOf(Where.first), 10u);
  EXPECT_EQ(Where.second, "CALL");
  // The condition's __CUDA_ARCH__, which Clang reports after CALL's
  // expansion, is no value use; the argument on line 11 is.
  EXPECT_FALSE(otherAt(5));
  EXPECT_EQ(otherAt(11), SiteKind::ValueUse);
}

// A system header's code is lexed without expanding its macros
// (PreprocessorPass.cpp, TokenDrain); the facts must be those of a full
// expansion all the same.

TEST_F(PreprocessorPassTest, ASystemHeadersPragmasStillChangeTheMacros) {
  // CCCL's _CCCL_PUSH_MACROS / _CCCL_POP_MACROS, in miniature: a macro in
  // the header's code that expands to _Pragma(push_macro/pop_macro).
  Tmp.write("sys/lib.h", R"(#pragma once
#define LIB_PRAGMA(x) _Pragma(#x)
#define LIB_PUSH LIB_PRAGMA(push_macro("FAST"))
#define LIB_POP LIB_PRAGMA(pop_macro("FAST"))
LIB_PUSH
#undef FAST
int lib_code;
LIB_POP
)");
  CompileFlags Flags;
  Flags.Args = {"-isystem" + Tmp.path("sys")};
  run(R"(#if __CUDA_ARCH__ >= 800
#define FAST 1
#endif
#include <lib.h>
__device__ int f() {
#ifdef FAST
  return 1;
#endif
  return 0;
}
)",
      {0, 80}, /*Parse=*/false, Flags);
  const Group &G = groupAt(6);
  EXPECT_EQ(G.Taken[0], NoBranch);
  EXPECT_EQ(G.Taken[passIndex(80)], 0);
  EXPECT_TRUE(G.Mentions);
}

TEST_F(PreprocessorPassTest, AQuietPragmaKeepsASystemHeaderReplayed) {
  // vector_types.h's deprecation silencers in miniature: a replay loses
  // their pragmas, which change nothing a pass records, so the header stays
  // replayed and the pass runs once.
  std::string H = Tmp.write("sys/quiet.h", R"(#pragma once
#define LIB_SILENCE_BEGIN _Pragma("GCC diagnostic push") \
  _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define LIB_SILENCE_END _Pragma("GCC diagnostic pop")
LIB_SILENCE_BEGIN
struct lib_vec { int x; };
LIB_SILENCE_END
)");
  CompileFlags Flags;
  Flags.Args = {"-isystem" + Tmp.path("sys")};
  run("#include <quiet.h>\n#if __CUDA_ARCH__ >= 800\n#endif\n", {0, 80},
      /*Parse=*/false, Flags);
  EXPECT_EQ(groupAt(2).Taken[passIndex(80)], 0);
  EXPECT_TRUE(replayed(H));
}

TEST_F(PreprocessorPassTest, CcclsPragmaSpellingsKeepASystemHeaderReplayed) {
  // CCCL's _Pragma of a stringized argument, in miniature: pragmas that
  // change nothing a pass records, a diagnostic's `ignored` mapping in a
  // pass with no error, and a push_macro/pop_macro of names no directive
  // of the pass defines (libstdc++ undefines them, which changes nothing
  // either). The header stays replayed.
  std::string H = Tmp.write("sys/cccl.h", R"(#pragma once
#undef min
#define LIB_STR2(s) #s
#define LIB_STR(s) LIB_STR2(s)
#define LIB_PRAGMA(a) _Pragma(LIB_STR(a))
#define LIB_EXEC_CHECK_DISABLE LIB_PRAGMA(nv_exec_check_disable)
#define LIB_UNROLL(n) LIB_PRAGMA(unroll n)
#define LIB_OLD(msg) LIB_PRAGMA(GCC warning #msg)
#define LIB_PUSH LIB_PRAGMA(push_macro("min"))
#define LIB_POP LIB_PRAGMA(pop_macro("min"))
#define LIB_SUPPRESS(w) LIB_PRAGMA(clang diagnostic ignored w)
LIB_PUSH
LIB_SUPPRESS("-Wunused-function")
LIB_EXEC_CHECK_DISABLE
template <class T> int lib_f(T t) { LIB_UNROLL(4) for (;;) return t; }
LIB_OLD(GCC 7.0);
LIB_POP
)");
  CompileFlags Flags;
  Flags.Args = {"-isystem" + Tmp.path("sys")};
  run("#include <cccl.h>\n#if __CUDA_ARCH__ >= 800\n#endif\n", {0, 80},
      /*Parse=*/false, Flags);
  EXPECT_EQ(groupAt(2).Taken[passIndex(80)], 0);
  EXPECT_TRUE(replayed(H));
}

TEST_F(PreprocessorPassTest, AForwarderRedefinedLaterReachesItsPragma) {
  // LIB_PRAGMA forwards when LIB_QUIET is defined, and later gives a
  // pragma that can change the macros: the header's use of LIB_QUIET is
  // read in full.
  std::string H =
      Tmp.write("sys/mixed.h", "#pragma once\n"
                               "#define LIB_STR(s) #s\n"
                               "#define LIB_PRAGMA(a) "
                               "_Pragma(LIB_STR(a))\n"
                               "#define LIB_QUIET "
                               "LIB_PRAGMA(nv_exec_check_disable)\n"
                               "#undef LIB_PRAGMA\n"
                               "#define LIB_PRAGMA(a) "
                               "_Pragma(\"push_macro(\\\"FAST\\\")\")\n"
                               "LIB_QUIET\n"
                               "int lib_code;\n");
  CompileFlags Flags;
  Flags.Args = {"-isystem" + Tmp.path("sys"), "-DFAST=1"};
  run("#include <mixed.h>\n", {0, 80}, /*Parse=*/false, Flags);
  EXPECT_FALSE(replayed(H));
}

TEST_F(PreprocessorPassTest, ASystemHeaderReplayedAsDirectivesDefinesAsBefore) {
  // Read through its directives only (SystemHeaderDirectives.h), the
  // header still defines its feature macro under __CUDA_ARCH__, in the
  // second pass from the scan the first one made.
  Tmp.write("sys/feat.h", R"(#pragma once
#if __CUDA_ARCH__ >= 800
#define LIB_FAST 1
#endif
int lib_code;
)");
  CompileFlags Flags;
  Flags.Args = {"-isystem" + Tmp.path("sys")};
  run(R"(#include <feat.h>
__device__ int f() {
#ifdef LIB_FAST
  return 1;
#endif
  return 0;
}
)",
      {0, 80}, /*Parse=*/false, Flags);
  EXPECT_TRUE(F.Derived.contains("LIB_FAST"));
  const Group &G = groupAt(3);
  EXPECT_TRUE(G.Mentions);
  EXPECT_EQ(G.Taken[0], NoBranch);
  EXPECT_EQ(G.Taken[passIndex(80)], 0);
}

TEST_F(PreprocessorPassTest, UserCodeRightAfterASystemHeaderIsExpanded) {
  // The header ends in code, lexed without expansion; the user's next token
  // is a macro that stands for __CUDA_ARCH__.
  Tmp.write("sys/lib.h", "int lib_a;\nint lib_b;\n");
  CompileFlags Flags;
  Flags.Args = {"-isystem" + Tmp.path("sys")};
  run(R"(#define ARCH __CUDA_ARCH__
#include <lib.h>
ARCH;
#include <lib.h>
__CUDA_ARCH__;
)",
      {80}, /*Parse=*/false, Flags);
  std::vector<const OtherSite *> Uses;
  for (auto &[K, O] : F.Others)
    if (O.Kind == SiteKind::ValueUse)
      Uses.push_back(&O);
  ASSERT_EQ(Uses.size(), 2u);
  EXPECT_EQ(otherAt(3), SiteKind::ValueUse);
  EXPECT_EQ(Uses[0]->Via, "ARCH");
  EXPECT_EQ(otherAt(5), SiteKind::ValueUse);
  EXPECT_TRUE(Uses[1]->Direct);
}

} // namespace
