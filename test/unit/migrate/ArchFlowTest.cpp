//===- ArchFlowTest.cpp - Device passes that preprocess alike -------------===//
#include "migrate/ArchFlow.h"
#include "AuditFixtures.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

class ArchFlowTest : public PassTest {
protected:
  /// Runs the host pass, then sm_\p Arch's with a record, over \p Code
  /// (in a file \p Name, with \p Flags); the device passes that preprocess
  /// as sm_\p Arch's.
  uint64_t alike(llvm::StringRef Code, unsigned Arch = 80,
                 llvm::StringRef Name = "k.cu",
                 const CompileFlags &Flags = {}) {
    Path = Tmp.write(Name, Code);
    PassSources Sources(*Files);
    CudaToolkit Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    if (llvm::Error Err = runPass(Path, Toolkit, Flags, 0, false, F, Sources))
      ADD_FAILURE() << llvm::toString(std::move(Err));
    if (llvm::Error Err = runPass(Path, Toolkit, Flags, passIndex(Arch), false,
                                  F, Sources, {}, &Record))
      ADD_FAILURE() << llvm::toString(std::move(Err));
    return passesAlike(Record, AllPasses & ~uint64_t(1));
  }

  ArchRecord Record;
};

TEST_F(ArchFlowTest, PassesAreAlikeWhereNoConditionTellsTheirValues) {
  // Directly, through a function-like macro and a named constant, in a
  // system header's conditions too (cuda_runtime.h's).
  EXPECT_EQ(alike(R"(#define AT_LEAST(v) (__CUDA_ARCH__ >= v)
#define HOPPER 900
#if AT_LEAST(800)
int ampere;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < HOPPER
int before_hopper;
#endif
__device__ int f() { return __CUDA_ARCH__; }
)"),
            mask({86, 87, 88, 89}));
  EXPECT_FALSE(Record.Unsafe);
  EXPECT_GE(Record.Conditions.size(), 2u);
}

TEST_F(ArchFlowTest, AConditionReadsTheMacrosAsDefinedAtIt) {
  EXPECT_EQ(alike(R"(#define CC 800
#if __CUDA_ARCH__ >= CC
int a;
#endif
#undef CC
#define CC(x) x
#if __CUDA_ARCH__ < CC(890) && !defined(LATER)
int b;
#endif
#define LATER
)"),
            mask({86, 87, 88}));
}

TEST_F(ArchFlowTest, ATestOfWhetherThereIsAValueIsNoConditionOnIt) {
  // Every device pass defines __CUDA_ARCH__.
  alike("#ifdef __CUDA_ARCH__\nint a;\n#endif\n#if defined(__CUDA_ARCH__)\n"
        "int b;\n#endif\n");
  EXPECT_FALSE(Record.Unsafe);
  for (const ArchCondition &C : Record.Conditions)
    EXPECT_NE(C.Text, "defined(__CUDA_ARCH__)");
}

TEST_F(ArchFlowTest, AConditionalThatOnlyDefinesIsFollowedThroughItsNames) {
  // As nv/target's per architecture: its branch may differ, what reads
  // the names it defines may not.
  uint64_t Toolkit = alike("int a;\n", 80, "toolkit.cu");
  ASSERT_NE(Toolkit & from(86), 0u);
  std::string Defines = "#if __CUDA_ARCH__ >= 860\n#define IS_86 1\n#else\n"
                        "#define IS_86 0\n#endif\n";
  EXPECT_EQ(alike(Defines, 80, "defines.cu"), Toolkit);
  // Read by a system header's conditions.
  CompileFlags System;
  System.Args = {"-isystem" + Tmp.path("sys")};
  Tmp.write("sys/same.h", Defines + "#if IS_86 || __CUDA_ARCH__ < 860\n"
                                    "#endif\n");
  EXPECT_EQ(alike("#include <same.h>\n", 80, "same.cu", System), Toolkit);
  Tmp.write("sys/reads.h", Defines + "#if IS_86\n#endif\n");
  EXPECT_EQ(alike("#include <reads.h>\n", 80, "reads.cu", System),
            Toolkit & ~from(86));
  EXPECT_FALSE(Record.Unsafe);
  // A condition of the user's records what it tests, the pass's value.
  alike(Defines + "#if IS_86\n#endif\n", 80, "user.cu");
  EXPECT_TRUE(Record.Unsafe);
}

TEST_F(ArchFlowTest, AValuePastedOutsideAConditionIsNotFollowed) {
  EXPECT_EQ(alike(R"(#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
int CAT(v, __CUDA_ARCH__);
)"),
            0u);
  EXPECT_TRUE(Record.Unsafe);
}

TEST_F(ArchFlowTest, AValueInAnotherDirectiveIsNotFollowed) {
  EXPECT_EQ(alike("#ifdef __CUDA_ARCH__\n#define AT __CUDA_ARCH__\n#line "
                  "AT\n#endif\nint a;\n"),
            0u);
  EXPECT_TRUE(Record.Unsafe);
}

TEST_F(ArchFlowTest, AConditionReachingAPasteOfNamesIsFollowed) {
  // As CCCL's `_CCCL_CUDA_COMPILER(NVCC) && __CUDA_ARCH__ >= 1000` (a
  // name pasted with the first of several arguments): the names pasted
  // are the same in every pass, and read as defined at each condition.
  EXPECT_EQ(alike(R"(#define CAT_(a, ...) a##__VA_ARGS__
#define FIRST_(x, ...) x
#define FIRST(...) FIRST_(__VA_ARGS__)
#define COMPILER(...) FIRST(CAT_(COMPILER_, __VA_ARGS__))
#define COMPILER_NVCC 1
#define LIMIT(x) LIMIT_##x
#define LIMIT_A 800
#if COMPILER(NVCC, >=, 12) && __CUDA_ARCH__ >= LIMIT(A)
int a;
#endif
#undef LIMIT_A
#define LIMIT_A 900
#if __CUDA_ARCH__ < LIMIT(A) && !CAT_(UNDEFINED_, NAME)
int b;
#endif
)"),
            mask({86, 87, 88, 89}));
  EXPECT_FALSE(Record.Unsafe);
  // The file's two, after the toolkit's.
  ASSERT_GE(Record.Conditions.size(), 2u);
  const ArchCondition &First = Record.Conditions.end()[-2];
  const ArchCondition &Second = Record.Conditions.back();
  auto Reaches = [&](const ArchCondition &C, llvm::StringRef Line) {
    return llvm::any_of(C.Macros,
                        [&](const auto &M) { return M.second == Line; });
  };
  EXPECT_TRUE(Reaches(First, "#define COMPILER_NVCC 1"));
  EXPECT_TRUE(Reaches(First, "#define LIMIT_A 800"));
  EXPECT_TRUE(Reaches(Second, "#define LIMIT_A 900"));
  EXPECT_TRUE(Reaches(Second, "#undef UNDEFINED_NAME"));
}

TEST_F(ArchFlowTest, AConditionMetAgainAsItWasIsRecordedOnce) {
  // Again after a conditional evaluated whole (the pass's own names may
  // differ there), or where a macro it reaches is defined otherwise.
  EXPECT_EQ(alike(R"(#define L 800
#if __CUDA_ARCH__ >= L
#endif
#if __CUDA_ARCH__ >= L
#endif
#if __CUDA_ARCH__ >= 860
#define IS_86 1
#else
#define IS_86 0
#endif
#if __CUDA_ARCH__ >= L
#endif
#undef L
#define L 900
#if __CUDA_ARCH__ >= L
#endif
#if __CUDA_ARCH__ >= L
#endif
)"),
            mask({86, 87, 88, 89}));
  std::vector<std::string> Lines;
  for (const ArchCondition &C : Record.Conditions)
    if (C.Text == "__CUDA_ARCH__ >= L")
      for (const auto &[Name, Line] : C.Macros)
        Lines.push_back(Line);
  EXPECT_EQ(Lines, (std::vector<std::string>{
                       "#define L 800", "#define L 800", "#define L 900"}));
}

TEST_F(ArchFlowTest, AConditionThatPastesTheValueOrAsksWhereItIsIsNotFollowed) {
  EXPECT_EQ(alike(R"(#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#define V_800 1
#if CAT(V_, __CUDA_ARCH__)
int a;
#endif
)"),
            0u);
  EXPECT_EQ(alike("#if __CUDA_ARCH__ > __LINE__\nint a;\n#endif\n"), 0u);
}

TEST_F(ArchFlowTest, WhatThePassReadOfTheFactsMustStillHold) {
  ArchRecord R;
  R.NotDerived.insert("X");
  R.NotAliases.insert("Y");
  R.SpacesRead["Z"] = DeviceSpace;
  Facts G;
  G.Spaces["Z"] = DeviceSpace;
  EXPECT_TRUE(stillAlike(R, G));
  G.Spaces["Z"] |= HostSpace;
  EXPECT_FALSE(stillAlike(R, G));
  G.Spaces["Z"] = DeviceSpace;
  G.Derived.insert("X");
  EXPECT_FALSE(stillAlike(R, G));
  G.Derived.clear();
  G.Aliases.insert("Y");
  EXPECT_FALSE(stillAlike(R, G));
}

TEST_F(ArchFlowTest, ACopiedPassTakesTheBranchesOfItsModel) {
  run("#if __CUDA_ARCH__ >= 800\nint a;\n#elif defined(__CUDA_ARCH__)\n"
      "int b;\n#endif\n",
      {0, 80});
  copyPass(F, passIndex(80), passIndex(86));
  EXPECT_EQ(groupAt(1).Taken[passIndex(86)], 0);
  EXPECT_EQ(F.Preprocessed, mask({0, 80, 86}));
}

} // namespace
