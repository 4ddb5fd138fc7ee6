//===- CheckTest.cpp - Constructs metacu cannot expand where they are -----===//
#include "expand/Check.h"
#include "Fixture.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// check() of \p TU with a hand-made host slice.
llvm::Error checkWith(TestTU &TU, const HostSliceResult &Slice) {
  return check(TU.scanned(), Slice);
}

TEST(CheckTest, MalformedConstructInLiveCodeIsAnError) {
  TestTU TU("int a;\n@meta for $paren^(int i = 0; i < 2; ++i\nint b;\n");
  ErrorAt E = errorOf(checkWith(TU, {}));
  EXPECT_EQ(E.Offset, TU.point("paren"));
  EXPECT_EQ(E.Message, "expected ')' to match this '('");
}

TEST(CheckTest, MalformedConstructInASkippedRegionIsNone) {
  TestTU TU("#if 0\n[[@meta for (\n@ bad\n]]#endif\nint b;\n");
  HostSliceResult Slice;
  Slice.Inactive.add(TU.range());
  EXPECT_FALSE(bool(checkWith(TU, Slice)));
}

TEST(CheckTest, ConstructInAnArchConditionalBlockIsAnError) {
  TestTU TU("#if __CUDA_ARCH__ >= 800\n$meta^@meta int x = 1;\n#endif\n");
  HostSliceResult Slice;
  Slice.ArchConditional.push_back({1, unsigned(TU.code().find("endif"))});
  ErrorAt E = errorOf(checkWith(TU, Slice));
  EXPECT_EQ(E.Offset, TU.point("meta"));
  EXPECT_NE(E.Message.find("tests __CUDA_ARCH__"), std::string::npos)
      << E.Message;
  EXPECT_NE(E.Message.find("if codegen"), std::string::npos) << E.Message;
}

TEST(CheckTest, ConstructInACompilerConditionalBlockIsAnError) {
  TestTU TU("__global__ void k(int *x) {\n"
            "[[#ifdef __CUDACC__\n"
            "  $meta^@meta int n = 2;\n"
            "#endif]]\n"
            "}\n");
  HostSliceResult Slice;
  Slice.CompilerConditional.push_back(TU.range());
  ErrorAt E = errorOf(checkWith(TU, Slice));
  EXPECT_EQ(E.Offset, TU.point("meta"));
  EXPECT_NE(E.Message.find("tests __CUDACC__ or __NVCC__"), std::string::npos)
      << E.Message;
}

TEST(CheckTest, NestedConstructsAreCheckedToo) {
  // The loop is fine; the statement in its body sits in the block.
  TestTU TU("__global__ void k(int *x) {\n"
            "  @meta for (int i = 0; i < 2; ++i) {\n"
            "[[#if __CUDA_ARCH__ >= 800\n"
            "    $inner^@meta int n = i;\n"
            "#endif]]\n"
            "  }\n"
            "}\n");
  HostSliceResult Slice;
  Slice.ArchConditional.push_back(TU.range());
  EXPECT_EQ(errorOf(checkWith(TU, Slice)).Offset, TU.point("inner"));
}

TEST(CheckTest, WhatASkippedRegionHoldsIsNotLookedAt) {
  // The region is skipped as a whole: the malformed construct nested in it
  // stays as written.
  TestTU TU("#if 0\n"
            "[[@meta for (int i = 0; i < 2; ++i) {\n"
            "  @meta for (\n"
            "}\n"
            "]]#endif\n");
  HostSliceResult Slice;
  Slice.Inactive.add(TU.range());
  EXPECT_FALSE(bool(checkWith(TU, Slice)));
}

TEST(CheckTest, ArchConditionalWinsOverSkipped) {
  // '#if __CUDA_ARCH__' blocks are skipped in the host pass, but a device
  // pass keeps them: the construct is still out of reach.
  TestTU TU("[[#if __CUDA_ARCH__ >= 800\n$meta^@meta int x = 1;\n#endif]]\n");
  HostSliceResult Slice;
  Slice.Inactive.add(TU.range());
  Slice.ArchConditional.push_back(TU.range());
  EXPECT_EQ(errorOf(checkWith(TU, Slice)).Offset, TU.point("meta"));
}

TEST(CheckTest, HeaderWithMetaConstructsIsAnErrorAtItsInclude) {
  TestTU TU("int a;\n$inc^#include \"tune.h\"\nint b;\n");
  HostSliceResult Slice;
  Slice.MetaHeaders.push_back({TU.point("inc"), "/src/tune.h", 3, 5});
  ErrorAt E = errorOf(checkWith(TU, Slice));
  EXPECT_EQ(E.Offset, 7u);
  EXPECT_EQ(E.Offset, TU.point("inc"));
  EXPECT_NE(E.Message.find("header '/src/tune.h' contains meta constructs (at "
                           "/src/tune.h:3:5)"),
            std::string::npos)
      << E.Message;
}

TEST(CheckTest, ADialectHeaderOfTheCommandLineIsAnError) {
  TestTU TU("int a;\n");
  HostSliceResult Slice;
  Slice.PreIncludedMetaHeaders.push_back({0, "d.cuh", 3, 3, "pre.h"});
  llvm::Error Err = checkWith(TU, Slice);
  ASSERT_TRUE(bool(Err));
  std::string Message = llvm::toString(std::move(Err));
  EXPECT_NE(Message.find("-include 'pre.h' includes 'd.cuh', which contains "
                         "meta constructs (at d.cuh:3:3)"),
            std::string::npos)
      << Message;
  EXPECT_NE(Message.find("#include it at the top of the input"),
            std::string::npos)
      << Message;
}

TEST(CheckTest, MetaHeaderComesFirstThenSourceOrder) {
  TestTU TU("@meta for $first^(\n$inc^#include \"tune.h\"\n$second^@ bad\n");
  HostSliceResult Slice;
  Slice.MetaHeaders.push_back({TU.point("inc"), "tune.h", 1, 1});
  EXPECT_EQ(errorOf(checkWith(TU, Slice)).Offset, TU.point("inc"));
  Slice.MetaHeaders.clear();
  EXPECT_EQ(errorOf(checkWith(TU, Slice)).Offset, TU.point("first"));
}

TEST(CheckTest, ExpandableInputPasses) {
  TestTU TU("#if 0\n#endif\n@meta int n = 2;\n"
            "__global__ void k(int *x) { x[0] = @(n); }\n");
  HostSliceResult Slice;
  Slice.Inactive.add({0, 6});
  EXPECT_FALSE(bool(checkWith(TU, Slice)));
}

//===--- __nvvm_arch as a value -------------------------------------------===//

TEST(CheckTest, ArchValueInOrdinaryCodeIsFine) {
  TestTU TU("constexpr int cc = (int)__nvvm_arch;\n"
            "__global__ void k(int *x) {\n"
            "  @meta for (int i = 0; i < 2; ++i)\n"
            "    x[i] = (int)__nvvm_arch;\n"
            "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { x[2] = cc; }\n"
            "#ifdef __nvvm_arch\n"
            "#endif\n"
            "}\n");
  EXPECT_FALSE(bool(checkWith(TU, {})));
}

TEST(CheckTest, ArchValueInEveryKindOfMetaCodeIsAnError) {
  for (const char *Code :
       {"@meta int cc = (int)$use^__nvvm_arch;\n",
        "@meta for (int i = 0; i < (int)$use^__nvvm_arch; ++i) int a;\n",
        "@meta while ($use^__nvvm_arch == nvvm_arch_t{}) int a;\n",
        "@meta if ($use^__nvvm_arch == x) int a;\n",
        "int a = @((int)$use^__nvvm_arch);\n",
        // Meta code in the branch of an 'if codegen' is meta code still.
        "void f() { if codegen (__nvvm_arch == x) {\n"
        "  @meta int n = (int)$use^__nvvm_arch; } }\n"}) {
    TestTU TU(Code);
    ErrorAt E = errorOf(checkWith(TU, {}));
    EXPECT_EQ(E.Offset, TU.point("use")) << Code;
    EXPECT_NE(E.Message.find("'__nvvm_arch' in meta code"), std::string::npos)
        << E.Message;
  }
}

TEST(CheckTest, ArchValueInASkippedRegionIsNone) {
  TestTU TU("[[#if 0\n@meta int cc = (int)__nvvm_arch;\n#if __nvvm_arch\n"
            "#endif\n#endif]]\n");
  HostSliceResult Slice;
  Slice.Inactive.add(TU.range());
  EXPECT_FALSE(bool(checkWith(TU, Slice)));
}

TEST(CheckTest, ArchValueInADeclarationMetaCodeUsesIsAnError) {
  TestTU TU("[[constexpr int n = (int)$use^__nvvm_arch;]]\n"
            "@meta int m = n;\n");
  HostSliceResult Slice;
  Slice.Declarations.push_back({TU.range(), 0});
  ErrorAt E = errorOf(checkWith(TU, Slice));
  EXPECT_EQ(E.Offset, TU.point("use"));
  EXPECT_NE(E.Message.find("declaration that meta code uses"),
            std::string::npos)
      << E.Message;
}

TEST(CheckTest, ArchValueInAPreprocessorConditionIsAnError) {
  TestTU TU("#if 1\n#elif (int)$use^__nvvm_arch >= 80\n#endif\n");
  ErrorAt E = errorOf(checkWith(TU, {}));
  EXPECT_EQ(E.Offset, TU.point("use"));
  EXPECT_NE(E.Message.find("'#elif'"), std::string::npos) << E.Message;
}

} // namespace
