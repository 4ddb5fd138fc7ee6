//===- ClassifyTest.cpp - The category of a site, and why -----------------===//
#include "migrate/Classify.h"
#include "AuditFixtures.h"

#include "gtest/gtest.h"
#include <functional>

using namespace metacu;

namespace {

const char *IfElse = R"(__device__ int f(int x) {
#if __CUDA_ARCH__ >= 800
  x += 1;
#else
  x -= 1;
#endif
  return x;
}
)";

/// The branch of a #if __CUDA_ARCH__ >= 800 / #else each pass takes.
int from80(unsigned Arch) { return Arch >= 80 ? 0 : 1; }

bool contains(llvm::StringRef Text, llvm::StringRef Part) {
  return Text.contains(Part);
}

/// Facts of one file, k.cu, built by hand: what the passes would record.
class ClassifyTest : public ::testing::Test {
protected:
  /// A conditional of k.cu (\p Text) whose directives are the first lines
  /// after one another that start with \p Markers, the last its #endif; a
  /// pass compiles the branch \p Taken gives for its architecture (0 for
  /// the host). Placed between statements of device function 'f'.
  Group &conditional(llvm::StringRef Text, std::vector<llvm::StringRef> Markers,
                     std::function<int(unsigned)> Taken) {
    F.FileOrder = {"k.cu"};
    F.Buffers["k.cu"] = Text.str();
    Group G;
    G.File = "k.cu";
    size_t From = 0;
    for (llvm::StringRef M : Markers) {
      size_t At = Text.find(M, From);
      EXPECT_NE(At, llvm::StringRef::npos) << M.str();
      G.Dirs.push_back(At + 1);
      G.DirIsElse.push_back(M.starts_with("#else"));
      From = At + 1;
    }
    for (unsigned P = 0; P < NumPasses; ++P)
      G.Taken[P] = Taken(auditPasses()[P]);
    G.Mentions = G.ValueCompared = true;
    G.Place = Placement::Statement;
    G.Space = DeviceSpace;
    G.Function = "f";
    return F.Groups[{"k.cu", G.Dirs.front()}] = G;
  }

  Group &ifElse(std::function<int(unsigned)> Taken = from80) {
    return conditional(IfElse, {"#if", "#else", "#endif"}, Taken);
  }

  Site classify(const Group &G, bool InMainFile = true,
                const Site *Parent = nullptr) {
    F.makeLineTables();
    LexedFiles Files(F);
    return classifyConditional(G, F, Files, InMainFile, Parent);
  }

  Facts F;
};

TEST_F(ClassifyTest, ABranchBetweenStatementsBecomesIfCodegen) {
  Site S = classify(ifElse());
  EXPECT_EQ(S.Kind, SiteKind::Conditional);
  EXPECT_EQ(S.Category, SiteCategory::Statement);
  EXPECT_EQ(S.Reason, "branch between statements of 'f'");
  ASSERT_EQ(S.Directives.size(), 3u);
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch >= 80");
  EXPECT_EQ(S.Directives[1].Codegen, "");
  EXPECT_TRUE(S.Directives[1].IsElse);
  EXPECT_TRUE(S.Directives[2].IsEndif);
}

TEST_F(ClassifyTest, DirectivesAreWhereAndAsWritten) {
  Site S = classify(ifElse());
  EXPECT_EQ(S.Line, 2u);
  EXPECT_EQ(S.Column, 1u);
  EXPECT_EQ(S.EndLine, 6u);
  EXPECT_EQ(S.Text, "#if __CUDA_ARCH__ >= 800");
  EXPECT_EQ(S.Offset, llvm::StringRef(IfElse).find("#if"));
  const SiteDirective &Else = S.Directives[1];
  EXPECT_EQ(Else.Line, 4u);
  EXPECT_EQ(Else.Text, "#else");
  EXPECT_EQ(Else.Begin, llvm::StringRef(IfElse).find("#else"));
  EXPECT_EQ(Else.End, llvm::StringRef(IfElse).find("  x -= 1"));
}

TEST_F(ClassifyTest, EachBranchListsThePassesThatCompileIt) {
  Site S = classify(ifElse());
  EXPECT_EQ(S.Directives[0].TakenBy, from(80));
  EXPECT_EQ(S.Directives[1].TakenBy, mask({0, 75}));
  EXPECT_EQ(S.Directives[2].TakenBy, 0u);
}

TEST_F(ClassifyTest, ContinuationLinesAreJoinedAndCommentsKept) {
  const char *Text = R"(__device__ void f() {
#if __CUDA_ARCH__ >= 800 && \
    __CUDA_ARCH__ < 900 /* ampere */ // only
  g();
#endif
}
)";
  Site S = classify(conditional(Text, {"#if", "#endif"}, [](unsigned A) {
    return A >= 80 && A < 90 ? 0 : NoBranch;
  }));
  EXPECT_EQ(S.Text, "#if __CUDA_ARCH__ >= 800 &&     __CUDA_ARCH__ < 900");
  EXPECT_EQ(S.Directives[0].Comment, "/* ampere */ // only");
  EXPECT_EQ(S.Directives[0].Line, 2u);
  EXPECT_EQ(S.Directives[1].Line, 5u);
  EXPECT_EQ(S.Directives[0].Codegen,
            "(int)__nvvm_arch >= 80 && (int)__nvvm_arch < 90");
}

TEST_F(ClassifyTest, LaterBranchesMayMatchWhatEarlierOnesTook) {
  const char *Text = R"(__device__ void f() {
#if __CUDA_ARCH__ >= 900
  a();
#elif __CUDA_ARCH__ >= 800
  b();
#else
  c();
#endif
}
)";
  Site S = classify(
      conditional(Text, {"#if", "#elif", "#else", "#endif"}, [](unsigned A) {
        return A >= 90 ? 0 : A >= 80 ? 1 : 2;
      }));
  EXPECT_EQ(S.Category, SiteCategory::Statement);
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch >= 90");
  EXPECT_EQ(S.Directives[1].Codegen, "(int)__nvvm_arch >= 80");
}

TEST_F(ClassifyTest, PassesThatNeverGetThereAreFree) {
  // Inside #ifdef __CUDA_ARCH__: the host pass never reaches it.
  Site S = classify(ifElse([](unsigned A) {
    return A == 0 ? Unreached : A >= 80 ? 1 : 0;
  }));
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch < 80");
}

TEST_F(ClassifyTest, BranchesNoArchitectureCompilesAreDropped) {
  const char *Text = R"(__device__ void f() {
#if __CUDA_ARCH__ >= 900
  a();
#elif __CUDA_ARCH__ >= 800
  b();
#elif __CUDA_ARCH__ >= 200
  c();
#elif __CUDA_ARCH__ >= 100
  d();
#else
  e();
#endif
}
)";
  Site S = classify(
      conditional(Text, {"#if", "#elif", "#elif", "#elif", "#else", "#endif"},
                  [](unsigned A) {
                    return A == 0 ? 4 : A >= 90 ? 0 : A >= 80 ? 1 : 2;
                  }));
  EXPECT_EQ(S.Category, SiteCategory::Statement);
  EXPECT_EQ(S.Directives[3].TakenBy, 0u);
  EXPECT_EQ(S.Directives[3].Codegen, "");
  EXPECT_EQ(S.Directives[2].Codegen, "(int)__nvvm_arch != 0");
  EXPECT_TRUE(contains(S.Reason, "; the branch at line 8 is compiled for no "
                                 "architecture nvcc 13 supports and is "
                                 "dropped"))
      << S.Reason;
}

TEST_F(ClassifyTest, AHostDeviceSplitInAHostDeviceFunction) {
  Group &G = ifElse([](unsigned A) { return A == 0 ? 1 : 0; });
  G.ValueCompared = false; // #ifdef __CUDA_ARCH__
  G.Space = HostSpace | DeviceSpace;
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::HostDeviceSplit);
  EXPECT_EQ(S.Reason, "host/device split in __host__ __device__ function 'f'");
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch != 0");
}

TEST_F(ClassifyTest, AHostDeviceTestInDeviceCodeIsAStatement) {
  Group &G = ifElse([](unsigned A) { return A == 0 ? 1 : 0; });
  G.ValueCompared = false;
  EXPECT_EQ(classify(G).Category, SiteCategory::Statement);
}

TEST_F(ClassifyTest, AComparisonThatOnlySplitsHostFromDeviceConverts) {
  // #if __CUDA_ARCH__ >= 700: every architecture nvcc 13 has is newer, so
  // it tells device from host, as #ifdef __CUDA_ARCH__ does.
  Group &G = ifElse([](unsigned A) { return A == 0 ? 1 : 0; });
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement);
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch != 0");
  G.Space = HostSpace | DeviceSpace;
  S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::HostDeviceSplit);
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch != 0");
  // Between declarations at namespace scope it chooses declarations.
  G.Place = Placement::Declarations;
  S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Declaration);
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch != 0");
}

TEST_F(ClassifyTest, DeclarationsAndMembersConvert) {
  Group &G = ifElse();
  G.Place = Placement::Declarations;
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Declaration);
  EXPECT_EQ(S.Reason, "chooses declarations at namespace scope");
  EXPECT_FALSE(S.Directives[0].Codegen.empty());
  Group &M = ifElse();
  M.Place = Placement::Members;
  M.Function = "Loader";
  S = classify(M);
  EXPECT_EQ(S.Category, SiteCategory::Declaration);
  EXPECT_EQ(S.Reason, "chooses members of class 'Loader'");
  // No function body around them: never a test in host-only code.
  M.Space = 0;
  EXPECT_EQ(classify(M).Category, SiteCategory::Declaration);
}

TEST_F(ClassifyTest, TheSameBranchEverywhereIsConstant) {
  Site S = classify(ifElse([](unsigned) { return 1; }));
  EXPECT_EQ(S.Category, SiteCategory::Constant);
  EXPECT_EQ(S.Reason, "every pass compiles the branch at line 4");
  S = classify(ifElse([](unsigned) { return NoBranch; }));
  EXPECT_EQ(S.Reason, "no pass compiles any branch");
}

TEST_F(ClassifyTest, AComparisonWithNoArchitectureValueIsAHazard) {
  Group &G = ifElse();
  G.BadValue = "80";
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Hazard);
  EXPECT_EQ(S.Reason, "compares __CUDA_ARCH__ with 80, which is not an "
                      "architecture value (sm_75 is 750)");
  EXPECT_EQ(S.Directives[0].Codegen, "");
}

TEST_F(ClassifyTest, ATestInHostOnlyCodeIsAHazard) {
  Group &G = ifElse();
  G.Space = HostSpace;
  G.Function = "h";
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Hazard);
  EXPECT_EQ(S.Reason, "tests __CUDA_ARCH__ in host-only function 'h': only "
                      "the host pass compiles its body");
}

TEST_F(ClassifyTest, HeadersOutsideTheTreeAreNotRewritten) {
  Site S = classify(ifElse(), /*InTree=*/false);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S.Reason, OutsideTree);
}

TEST_F(ClassifyTest, ArchSpecificFeaturesStay) {
  Group &G = ifElse();
  G.ArchFeature = true;
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "arch-specific feature macros")) << S.Reason;
}

TEST_F(ClassifyTest, ADirectiveInsideAMacroInvocationStays) {
  Group &G = ifElse();
  // A function-like macro's invocation from line 1 to line 5 holds the
  // #if and the #else.
  F.ArgumentLists[{"k.cu", 0}] = {G.Dirs[1] + 2, "CALL"};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "inside the arguments of macro 'CALL' (line "
                                 "1)"))
      << S.Reason;
}

TEST_F(ClassifyTest, SplitsAndUnplacedSitesStay) {
  std::pair<Placement, llvm::StringRef> Cases[] = {
      {Placement::Unknown, "not found in the parsed code"},
      {Placement::SplitsStatement, "its directives split a statement"}};
  for (auto [Place, Reason] : Cases) {
    Group &G = ifElse();
    G.Place = Place;
    Site S = classify(G);
    EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
    EXPECT_TRUE(contains(S.Reason, Reason)) << S.Reason;
  }
  Group &D = ifElse();
  D.Place = Placement::SplitsDeclaration;
  D.PlaceDetail = "its directive at line 2 is inside the declaration of 'f'";
  EXPECT_EQ(classify(D).Category, SiteCategory::NotConvertible);
  EXPECT_EQ(classify(D).Reason, D.PlaceDetail);
}

TEST_F(ClassifyTest, DeclaringWhatFollowsUsesIsALocalDeclaration) {
  Group &G = ifElse();
  G.Place = Placement::DeclaresNames;
  G.PlaceDetail = "declares 'y' in 'f', used after the #endif";
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::LocalDeclaration);
  EXPECT_EQ(S.Reason, G.PlaceDetail);
  EXPECT_FALSE(S.Directives[0].Codegen.empty());
  // Inside a conditional that stays it stays too.
  Site Parent;
  Parent.Line = 1;
  Parent.Category = SiteCategory::NotConvertible;
  EXPECT_EQ(classify(G, true, &Parent).Category, SiteCategory::NotConvertible);
}

TEST_F(ClassifyTest, InsideAConditionalThatStays) {
  Site Parent;
  Parent.Line = 1;
  Parent.Category = SiteCategory::NotConvertible;
  Site S = classify(ifElse(), true, &Parent);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "inside the conditional at line 1, which "
                                 "stays"))
      << S.Reason;
  Parent.Category = SiteCategory::Statement;
  EXPECT_EQ(classify(ifElse(), true, &Parent).Category,
            SiteCategory::Statement);
  // One every pass takes alike stays as written around an 'if codegen'.
  Parent.Category = SiteCategory::Constant;
  EXPECT_EQ(classify(ifElse(), true, &Parent).Category,
            SiteCategory::Statement);
}

TEST_F(ClassifyTest, IncludesKeepTheirPreprocessorMeaningDefinesRideAlong) {
  Group &G = ifElse();
  F.Includes.insert({"k.cu", unsigned(llvm::StringRef(IfElse).find("x += 1"))});
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S.Reason, "gates the #include at line 3");
  EXPECT_EQ(S.Directives[0].Codegen, "");
  // A #define stays inside the 'if codegen' branch, which becomes an #if
  // of the passes that take it.
  F.Includes.clear();
  F.Defines.insert({"k.cu", unsigned(llvm::StringRef(IfElse).find("x -= 1"))});
  S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::MacroDefinition);
  EXPECT_TRUE(contains(S.Reason, "defines macros per architecture (line 5)"))
      << S.Reason;
  EXPECT_NE(S.Directives[0].Codegen, "");
  // Beside an #include it stays with it.
  F.Includes.insert({"k.cu", unsigned(llvm::StringRef(IfElse).find("x += 1"))});
  EXPECT_EQ(classify(G).Category, SiteCategory::NotConvertible);
  F.Includes.clear();
  // One after the #endif is no concern of the conditional's.
  F.Defines = {{"k.cu", unsigned(llvm::StringRef(IfElse).find("return"))}};
  EXPECT_EQ(classify(G).Category, SiteCategory::Statement);
}

TEST_F(ClassifyTest, ViaListsTheMacrosOnTheWay) {
  Group &G = ifElse();
  G.Via = {"ARCH", "HAS_MMA"};
  EXPECT_EQ(classify(G).Via, (std::vector<std::string>{"ARCH", "HAS_MMA"}));
}

TEST_F(ClassifyTest, WhatIsASite) {
  Group &G = ifElse([](unsigned) { return 0; });
  EXPECT_TRUE(isSite(G)); // names __CUDA_ARCH__
  G.Mentions = false;
  EXPECT_FALSE(isSite(G));
  G.Taken[passIndex(90)] = 1; // differs between passes all the same
  EXPECT_TRUE(isSite(G));
  G.Dirs.resize(1); // never closed
  EXPECT_FALSE(isSite(G));
}

const char *HostCompilers = R"(__host__ __device__ int f(unsigned v) {
#if defined(__CUDA_ARCH__)
  return __popc(v);
#elif defined(__GNUC__)
  return __builtin_popcount(v);
#else
  return __popcnt(v);
#endif
}
)";

TEST_F(ClassifyTest, HostCompilerBranchesAreKeptInTheLastElse) {
  // The host pass takes the __GNUC__ branch here; MSVC's '#else' is no
  // pass's on this machine, but converting it away would drop it for every
  // host: those directives stay, an #if inside the chain's 'else'.
  Group &G = conditional(HostCompilers, {"#if", "#elif", "#else", "#endif"},
                         [](unsigned Arch) { return Arch ? 0 : 1; });
  G.Space = HostSpace | DeviceSpace;
  G.Tests = {{G.Dirs[0], {"__CUDA_ARCH__"}}, {G.Dirs[1], {"__GNUC__"}}};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::HostDeviceSplit) << S.Reason;
  EXPECT_TRUE(contains(S.Reason, "the condition of other builds at line 4 "
                                 "stays an #if"))
      << S.Reason;
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch != 0");
  EXPECT_FALSE(S.Directives[0].Kept);
  EXPECT_TRUE(S.Directives[1].Kept);
  EXPECT_TRUE(S.Directives[2].Kept);
  EXPECT_EQ(S.Directives[1].Codegen, "");
  // The chain's 'else' opens after the device branch's code and closes
  // before the '}' after the #endif.
  llvm::StringRef Text(HostCompilers);
  EXPECT_EQ(S.Directives[0].BodyEnd, Text.find("(v);") + 4);
  EXPECT_EQ(S.Directives[3].BodyFirst, Text.rfind("}"));
}

TEST_F(ClassifyTest, KeptDirectivesFirstEncloseTheChain) {
  const char *Text = R"(__device__ int f(int x) {
#if defined(GGML_USE_HIP)
  return x + 1;
#elif __CUDA_ARCH__ >= 800
  return x + 2;
#else
  return x + 3;
#endif
}
)";
  Group &G = conditional(Text, {"#if", "#elif", "#else", "#endif"},
                         [](unsigned Arch) { return Arch >= 80 ? 1 : 2; });
  G.Tests = {{G.Dirs[0], {"GGML_USE_HIP"}}, {G.Dirs[1], {"__CUDA_ARCH__"}}};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement) << S.Reason;
  EXPECT_TRUE(S.Directives[0].Kept);
  EXPECT_FALSE(S.Directives[1].Kept);
  EXPECT_EQ(S.Directives[1].Codegen, "(int)__nvvm_arch >= 80");
  EXPECT_EQ(S.Directives[1].BodyFirst,
            llvm::StringRef(Text).find("return x + 2"));
  EXPECT_EQ(S.Directives[2].BodyEnd, llvm::StringRef(Text).find("x + 3;") + 6);
}

TEST_F(ClassifyTest, KeptDirectivesNeedCodeBesideTheirBraces) {
  // The chain would open before the branch's first line, a directive.
  const char *Text = R"(__device__ int f(int x) {
#if defined(GGML_USE_HIP)
  return x + 1;
#elif __CUDA_ARCH__ >= 800
#pragma unroll
  for (int i = 0; i < 4; ++i) x += i;
#else
  x = 3;
#endif
  return x;
}
)";
  Group &G = conditional(Text, {"#if", "#elif", "#else", "#endif"},
                         [](unsigned Arch) { return Arch >= 80 ? 1 : 2; });
  G.Tests = {{G.Dirs[0], {"GGML_USE_HIP"}}, {G.Dirs[1], {"__CUDA_ARCH__"}}};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "the branch at line 4 is empty or begins or "
                                 "ends with a preprocessor directive"))
      << S.Reason;
}

const char *MsvcFirst = R"(__device__ int f(int x) {
#if defined(_MSC_VER) && !defined(__CUDA_ARCH__)
  return x + 1;
#elif defined(__CUDA_ARCH__)
  return x + 2;
#else
  return x + 3;
#endif
}
)";

TEST_F(ClassifyTest, ATestOfAnotherNameAndTheArchitectureGoesUnderThisBuilds) {
  // No pass compiles MSVC's branch here; its condition also tests the
  // architecture. Where _MSC_VER is undefined, as here, the passes'
  // branches are the architecture's choice.
  Group &G = conditional(MsvcFirst, {"#if", "#elif", "#else", "#endif"},
                         [](unsigned Arch) { return Arch ? 1 : 2; });
  G.Tests = {{G.Dirs[0], {"_MSC_VER", "__CUDA_ARCH__"}},
             {G.Dirs[1], {"__CUDA_ARCH__"}}};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement) << S.Reason;
  EXPECT_EQ(S.ThisBuild, "!defined(_MSC_VER)");
  EXPECT_EQ(S.Directives[0].Codegen, "");
  EXPECT_EQ(S.Directives[1].Codegen, "(int)__nvvm_arch != 0");
  EXPECT_TRUE(contains(S.Reason, "dropped from the 'if codegen' chain"))
      << S.Reason;
}

TEST_F(ClassifyTest, TheNamesUnderADerivedMacrosDefinitionAreTestedToo) {
  // TURING is defined under '#if !defined(GGML_USE_HIP) && ...': where
  // GGML_USE_HIP is defined, the chain would choose what it cannot.
  Group &G = ifElse();
  F.Derived.insert("TURING");
  G.Tests = {{G.Dirs[0], {"AMD_MFMA", "TURING"}}};
  G.Under = {"GGML_USE_HIP", "__CUDA_ARCH__"};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement) << S.Reason;
  EXPECT_EQ(S.ThisBuild, "!defined(AMD_MFMA) && !defined(GGML_USE_HIP)");
}

TEST_F(ClassifyTest, AVersionEveryPassDefinesAlikeIsSpelledInThatTest) {
  // CUTLASS's '__CUDA_ARCH__ >= 900 && __CUDACC_VER_MAJOR__ >= 12': the
  // chain is for this toolkit's version, another reads it as written.
  Group &G = ifElse([](unsigned Arch) { return Arch >= 90 ? 0 : 1; });
  G.Tests = {{G.Dirs[0], {"__CUDACC_VER_MAJOR__", "__CUDA_ARCH__"}}};
  F.DefinedTests = {"__CUDACC_VER_MAJOR__"};
  F.TestedValues["__CUDACC_VER_MAJOR__"] = "13";
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement) << S.Reason;
  EXPECT_EQ(S.ThisBuild, "__CUDACC_VER_MAJOR__ == 13");
  // Zero is what an undefined name reads as too.
  F.TestedValues["__CUDACC_VER_MAJOR__"] = "0";
  EXPECT_EQ(classify(G).ThisBuild,
            "defined(__CUDACC_VER_MAJOR__) && __CUDACC_VER_MAJOR__ == 0");
  // A name defined under a test of the architecture (the macro the branch
  // defines): expand would read this build's #if as chosen per
  // architecture.
  F.DefinedUnderArch.insert("__CUDACC_VER_MAJOR__");
  S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "is a macro defined under a test of the "
                                 "architecture: expand reads the #if of "
                                 "this build as chosen per architecture"))
      << S.Reason;
  F.DefinedUnderArch.clear();
  // Another body in some pass, or none: no one value to spell.
  F.TestedValues["__CUDACC_VER_MAJOR__"] = "";
  S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "'__CUDACC_VER_MAJOR__' is a macro here "
                                 "with no one integer value in every pass"))
      << S.Reason;
}

TEST_F(ClassifyTest, ATestOfAnotherNameAndTheArchitectureStaysWhereItMust) {
  auto Mixed = [&]() -> Group & {
    Group &G = conditional(MsvcFirst, {"#if", "#elif", "#else", "#endif"},
                           [](unsigned Arch) { return Arch ? 1 : 2; });
    G.Tests = {{G.Dirs[0], {"_MSC_VER", "__CUDA_ARCH__"}},
               {G.Dirs[1], {"__CUDA_ARCH__"}}};
    return G;
  };
  // A name some pass defines: its value would need spelling.
  Group &G = Mixed();
  F.DefinedTests = {"_MSC_VER"};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "its condition at line 2 tests '_MSC_VER' "
                                 "and the architecture together, and "
                                 "'_MSC_VER' is a macro here"))
      << S.Reason;
  EXPECT_EQ(S.ThisBuild, "");
}

TEST_F(ClassifyTest, ATestOfAnotherNameAndTheArchitectureKeepsItsDirectives) {
  // '#pragma unroll' and a conditional every pass takes alike are written
  // in both copies of the branch, as they are.
  const char *Text = R"(__device__ int f(int x) {
#if defined(GGML_USE_HIP) || __CUDA_ARCH__ >= 800
#pragma unroll
  for (int i = 0; i < 2; ++i) x += i;
#if defined(RDNA4)
  x *= 2;
#endif
#else
  x -= 1;
#endif
  return x;
}
)";
  Group &G = conditional(Text, {"#if", "#else", "#endif"}, from80);
  G.Dirs = {G.Dirs[0], unsigned(llvm::StringRef(Text).find("#else") + 1),
            unsigned(llvm::StringRef(Text).rfind("#endif") + 1)};
  G.Tests = {{G.Dirs[0], {"GGML_USE_HIP", "__CUDA_ARCH__"}}};
  Group Rdna;
  Rdna.File = "k.cu";
  Rdna.Dirs = {unsigned(llvm::StringRef(Text).find("#if defined(RDNA4)") + 1),
               unsigned(llvm::StringRef(Text).find("#endif") + 1)};
  Rdna.DirIsElse = {false, false};
  for (unsigned P = 0; P < NumPasses; ++P)
    Rdna.Taken[P] = NoBranch;
  F.Groups[{"k.cu", Rdna.Dirs.front()}] = Rdna;
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement) << S.Reason;
  EXPECT_EQ(S.ThisBuild, "!defined(GGML_USE_HIP)");
  // A conditional on the architecture inside stays one place migrate
  // rewrites: the branch is not written again.
  F.Groups[{"k.cu", Rdna.Dirs.front()}].Mentions = true;
  S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "together, and its branch at line 2 holds "
                                 "a conditional on the architecture (line "
                                 "5): the 'if codegen' chain for this build "
                                 "would write the branch again"))
      << S.Reason;
  // One testing a macro defined under a test of the architecture that no
  // pass has reads alike in every pass: written again.
  F.Groups[{"k.cu", Rdna.Dirs.front()}].Mentions = false;
  F.Groups[{"k.cu", Rdna.Dirs.front()}].Tests = {{Rdna.Dirs[0], {"RDNA4"}}};
  F.DefinedUnderArch.insert("RDNA4");
  EXPECT_EQ(classify(G).Category, SiteCategory::Statement);
  // One that some pass has, expand reads as chosen per architecture.
  F.DefinedTests.insert("RDNA4");
  EXPECT_EQ(classify(G).Category, SiteCategory::NotConvertible);
}

TEST_F(ClassifyTest, AMacroDerivedFromTheArchitectureIsTheArchitectures) {
  // HAS_FAST is defined under '#if __CUDA_ARCH__ >= 800': its test is one
  // of the architecture, and the branch no pass compiles is an older GPU's.
  Group &G = conditional(HostCompilers, {"#if", "#elif", "#else", "#endif"},
                         [](unsigned Arch) { return Arch ? 0 : 2; });
  F.Derived.insert("HAS_FAST");
  G.Tests = {{G.Dirs[0], {"__CUDA_ARCH__"}}, {G.Dirs[1], {"HAS_FAST"}}};
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::Statement) << S.Reason;
  EXPECT_TRUE(contains(S.Reason, "the branch at line 4 is compiled for no "
                                 "architecture"))
      << S.Reason;
}

TEST_F(ClassifyTest, AnOlderGpuBranchBeforeTheHostsIsStillDropped) {
  const char *Text = R"(__host__ __device__ int f(int x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
  x += 1;
#elif defined(__CUDA_ARCH__)
  x += 2;
#else
  x -= 1;
#endif
  return x;
}
)";
  Group &G = conditional(Text, {"#if", "#elif", "#else", "#endif"},
                         [](unsigned Arch) { return Arch ? 1 : 2; });
  G.Space = HostSpace | DeviceSpace;
  Site S = classify(G);
  EXPECT_EQ(S.Category, SiteCategory::HostDeviceSplit) << S.Reason;
  EXPECT_TRUE(contains(S.Reason, "is dropped")) << S.Reason;
}

class ClassifyOtherTest : public ClassifyTest {
protected:
  Site other(SiteKind K, llvm::StringRef Via = "", bool Direct = false,
             std::optional<std::string> Stays = std::nullopt) {
    const char *Text = "#define ARCH __CUDA_ARCH__\n"
                       "__device__ int v() {\n"
                       "  return  __CUDA_ARCH__ ;\n"
                       "}\n";
    F.Buffers["k.cu"] = Text;
    unsigned At = K == SiteKind::ValueUse
                      ? llvm::StringRef(Text).find("__CUDA_ARCH__ ;")
                      : llvm::StringRef(Text).find("ARCH");
    OtherSite O{K, Via.str()};
    O.Direct = Direct;
    F.makeLineTables();
    return classifyOther({"k.cu", At}, O, F, std::move(Stays));
  }
};

TEST_F(ClassifyOtherTest, AValueUseInTheCodeBecomesNvvmArch) {
  Site S = other(SiteKind::ValueUse, "", /*Direct=*/true);
  EXPECT_EQ(S.Category, SiteCategory::Value);
  EXPECT_TRUE(isConvertible(S.Category));
  EXPECT_EQ(S.Line, 3u);
  EXPECT_EQ(S.EndLine, 3u);
  EXPECT_EQ(S.Column, 11u);
  EXPECT_EQ(S.Text, "return  __CUDA_ARCH__ ;");
  EXPECT_TRUE(contains(S.Reason, "((int)__nvvm_arch * 10)")) << S.Reason;
}

TEST_F(ClassifyOtherTest, AValueUseStaysWhereItsPlaceSaysSo) {
  Site S = other(SiteKind::ValueUse, "", true, std::string("inside X"));
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S.Reason, "inside X");
  // Through a macro: the token is in the macro's definition.
  S = other(SiteKind::ValueUse, "ARCH", /*Direct=*/false);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_TRUE(contains(S.Reason, "through macro 'ARCH'")) << S.Reason;
}

TEST_F(ClassifyOtherTest, AMacroAliasIsListedWithItsSource) {
  Site S = other(SiteKind::MacroAlias, "BASE");
  EXPECT_EQ(S.Kind, SiteKind::MacroAlias);
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S.Line, 1u);
  EXPECT_EQ(S.Column, 9u);
  EXPECT_EQ(S.Text, "#define ARCH __CUDA_ARCH__");
  EXPECT_EQ(S.Via, std::vector<std::string>{"BASE"});
}

TEST_F(ClassifyOtherTest, ARedefinitionIsAHazard) {
  Site S = other(SiteKind::Redefinition);
  EXPECT_EQ(S.Category, SiteCategory::Hazard);
  EXPECT_TRUE(contains(S.Reason, "only nvcc may set")) << S.Reason;
  EXPECT_TRUE(S.Via.empty());
}

} // namespace

TEST(ClassifyValueMacroTest, AMacroUsedInCodeOnlyTakesTheValueForm) {
  Facts F;
  OtherSite Alias{SiteKind::MacroAlias, ""};
  Alias.Name = "NO_DEVICE_CODE";
  Alias.ValueTokens = {40};
  EXPECT_TRUE(takesValueForm(Alias, F));
  // Named in another macro's body or arguments: it may be stringified.
  F.NamedInMacros.insert("NO_DEVICE_CODE");
  EXPECT_FALSE(takesValueForm(Alias, F));
  F.NamedInMacros.clear();
  // Tested by a conditional: the preprocessor needs the number.
  F.Groups[{"k.cu", 0}].Via.insert("NO_DEVICE_CODE");
  EXPECT_FALSE(takesValueForm(Alias, F));
  F.Groups.clear();
  // A body with '#' or '##', or through another macro: no value tokens.
  Alias.ValueTokens.clear();
  EXPECT_FALSE(takesValueForm(Alias, F));
}

TEST(ClassifyValueMacroTest, TheDefinitionAndItsUsesBecomeValueSites) {
  OtherSite Alias{SiteKind::MacroAlias, ""};
  Alias.ValueTokens = {7, 30};
  Site D;
  D.Kind = SiteKind::MacroAlias;
  convertThroughMacro(D, Alias);
  EXPECT_EQ(D.Category, SiteCategory::Value);
  EXPECT_EQ(D.ValueOffsets, (std::vector<unsigned>{7, 30}));
  Site U;
  U.Kind = SiteKind::ValueUse;
  convertThroughMacro(U, OtherSite{SiteKind::ValueUse, "NO_DEVICE_CODE"});
  EXPECT_EQ(U.Category, SiteCategory::Value);
  EXPECT_NE(U.Reason.find("'NO_DEVICE_CODE', whose definition takes the "
                          "value form"),
            std::string::npos)
      << U.Reason;
  EXPECT_TRUE(U.ValueOffsets.empty());
}
