//===- UntaggedTest.cpp - Untagged helpers that device code calls ---------===//
#include "expand/Untagged.h"
#include "Fixture.h"

using namespace metacu;

namespace {

llvm::Expected<std::vector<unsigned>> helpers(TestTU &TU) {
  auto Slice = TU.slice();
  if (!Slice)
    return Slice.takeError();
  PipelineOptions Opts = TestTU::pipelineOptions();
  return untaggedDeviceHelpers(TU.file(), TU.scanned(), *Slice,
                               *ArchList::parse("75,90"), Opts);
}

std::vector<unsigned> offsets(TestTU &TU) {
  auto H = helpers(TU);
  if (!H) {
    ADD_FAILURE() << llvm::toString(H.takeError());
    return {};
  }
  return *H;
}

TEST(UntaggedTest, HelpersDeviceCodeReachesAreTaggedOnEveryDeclaration) {
  TestTU TU(
      "$a^int sq(int x);\n"
      "template <class T> $b^T cube(T x) { return x * sq(x); }\n"
      "$c^int sq(int x) { return x * x; }\n"
      "int unused(int x) { return x; }\n"
      "namespace n { $d^float half(float v) { return v / 2; } }\n"
      "extern \"C\" $e^bool isPow2(unsigned x) { return !(x & (x - 1)); }\n"
      "__global__ void k(int *o, float *f) {\n"
      "  o[0] = cube(2); f[0] = n::half(f[1]); o[1] = isPow2(4);\n"
      "}\n");
  EXPECT_EQ(offsets(TU),
            (std::vector<unsigned>{TU.point("a"), TU.point("b"), TU.point("c"),
                                   TU.point("d"), TU.point("e")}));
}

TEST(UntaggedTest, TheCalleeIsSemasNotANamesakes) {
  // cooperative groups' reduce in device code is not the file's host
  // template of that name; nor is an overload Sema does not pick.
  TestTU TU("namespace lib { __device__ int reduce(int v) { return v; } }\n"
            "bool isPow2(unsigned x) { return !(x & (x - 1)); }\n"
            "template <class T> void reduce(T *p, int n) {\n"
            "  if (isPow2(n)) p[0] = 0;\n"
            "}\n"
            "int scale(int x) { return 2 * x; }\n"
            "__device__ float scale(float x) { return 2 * x; }\n"
            "__global__ void k(float *o) {\n"
            "  o[0] = lib::reduce(1) + scale(o[1]);\n"
            "}\n"
            "int main() { reduce<int>(nullptr, 4); }\n");
  EXPECT_TRUE(offsets(TU).empty());
}

// With meta code in the input, a call Sema left no trace of reaches the
// helpers it names (a meta name masked); the shapes below are CUTLASS's
// cute::gemm beside its tutorial's host gemm(char, char, ...).
TEST(UntaggedTest, ACallThePreprocessorSkipsReachesNoHelper) {
  TestTU TU("@meta int unroll = 2;\n"
            "template <class T> void gemm(char t, T *p) { p[0] = t; }\n"
            "namespace lib {\n"
            "template <class T> __host__ __device__ void gemm(T *p, T v) {\n"
            "  p[0] = v;\n"
            "}\n"
            "template <class T> __host__ __device__ void run(T *p) {\n"
            "#if 1\n"
            "  gemm(p, T(1));\n"
            "#else\n"
            "  gemm('N', p);\n"
            "#endif\n"
            "}\n"
            "} // namespace lib\n"
            "__global__ void k(float *p) { lib::run(p); }\n"
            "int main() { gemm('N', (float *)nullptr); }\n");
  EXPECT_TRUE(offsets(TU).empty());
}

TEST(UntaggedTest, ABranchIfConstexprDiscardsReachesNoHelper) {
  TestTU TU("@meta int unroll = 2;\n"
            "template <class T> void gemm(char t, T *p) { p[0] = t; }\n"
            "namespace lib {\n"
            "template <class T> __host__ __device__ void run(T *p) {\n"
            "  if constexpr (sizeof(T) == 4)\n"
            "    p[0] = 1;\n"
            "  else\n"
            "    gemm('N', p);\n"
            "}\n"
            "} // namespace lib\n"
            "__global__ void k(float *p) { lib::run(p); }\n"
            "int main() { gemm('N', (float *)nullptr); }\n");
  EXPECT_TRUE(offsets(TU).empty());
  // The branch an instantiation keeps still reaches it.
  TestTU Kept("@meta int unroll = 2;\n"
              "template <class T> $g^void gemm(char t, T *p) { p[0] = t; }\n"
              "namespace lib {\n"
              "template <class T> __host__ __device__ void run(T *p) {\n"
              "  if constexpr (sizeof(T) == 8)\n"
              "    p[0] = 1;\n"
              "  else\n"
              "    gemm('N', p);\n"
              "}\n"
              "} // namespace lib\n"
              "__global__ void k(float *p) { lib::run(p); }\n");
  EXPECT_EQ(offsets(Kept), std::vector<unsigned>{Kept.point("g")});
}

TEST(UntaggedTest, ANameInAnUnevaluatedOperandReachesNoHelper) {
  // sizeof, alignof, decltype and noexcept name a function without calling
  // it: nvcc compiles these in device code with the helper host-only.
  TestTU TU("@meta int unroll = 2;\n"
            "int width(int x) { return x; }\n"
            "__global__ void k(int *p) {\n"
            "  p[0] = sizeof(width(1)) + alignof(decltype(width(2)));\n"
            "  decltype(width(3)) v = 3;\n"
            "  p[1] = v + noexcept(width(4));\n"
            "}\n"
            "int main() { return width(0); }\n");
  EXPECT_TRUE(offsets(TU).empty());
  // A call beside them still reaches it.
  TestTU Called("@meta int unroll = 2;\n"
                "$w^int width(int x) { return x; }\n"
                "__global__ void k(int *p) {\n"
                "  decltype(width(3)) v = 3;\n"
                "  p[0] = sizeof(width(1)) + width(v);\n"
                "}\n");
  EXPECT_EQ(offsets(Called), std::vector<unsigned>{Called.point("w")});
}

TEST(UntaggedTest, TaggedConstexprAndMemberFunctionsAreLeftAlone) {
  TestTU TU("__host__ __device__ int a(int x) { return x; }\n"
            "constexpr int twice(int x) { return 2 * x; }\n"
            "struct S { int m(int x) { return x; } };\n"
            "__device__ int d(S s) { return a(1) + twice(2) + s.m(2); }\n");
  EXPECT_TRUE(offsets(TU).empty());
}

TEST(UntaggedTest, AHelperReachedThroughAMacroIsTagged) {
  TestTU TU("#define SQUARE(x) sq(x)\n"
            "$sq^int sq(int x) { return x * x; }\n"
            "__global__ void k(int *o) { o[0] = SQUARE(o[1]); }\n");
  EXPECT_EQ(offsets(TU), std::vector<unsigned>{TU.point("sq")});
}

TEST(UntaggedTest, AnExternCHelperAloneIsTaggedAfterItsLinkage) {
  TestTU TU(
      "extern \"C\" $f^bool isPow2(unsigned x) { return !(x & (x - 1)); }\n"
      "extern \"C\" { $g^int twice(int x) { return 2 * x; } }\n"
      "__global__ void k(int *o) { o[0] = isPow2(o[1]) + twice(1); }\n");
  EXPECT_EQ(offsets(TU), (std::vector<unsigned>{TU.point("f"), TU.point("g")}));
}

TEST(UntaggedTest, HelperThatCannotRunOnTheDeviceIsAnErrorAtTheCall) {
  TestTU TU("__host__ int cfg() { return 4; }\n"
            "int mid(int x) { return x * cfg(); }\n"
            "int top(int x) { return mid(x) + 1; }\n"
            "__global__ void k(int *o) { o[0] = $call^top(2); }\n");
  ErrorAt E = errorOf(helpers(TU).takeError());
  EXPECT_EQ(E.Offset, TU.point("call"));
  EXPECT_EQ(E.Message, "'top' has no execution-space attribute and device code "
                       "calls it, but metacu cannot make it __host__ "
                       "__device__: it calls 'mid', which calls 'cfg', which "
                       "is declared __host__");
}

TEST(UntaggedTest, AHelperThatLaunchesAKernelCannotRunOnTheDevice) {
  TestTU TU("__global__ void other(int *o) { o[0] = 1; }\n"
            "void launch(int *o) { other<<<1, 1>>>(o); }\n"
            "__global__ void k(int *o) { $call^launch(o); }\n");
  ErrorAt E = errorOf(helpers(TU).takeError());
  EXPECT_EQ(E.Offset, TU.point("call"));
  EXPECT_NE(E.Message.find("it launches a kernel"), std::string::npos)
      << E.Message;
}

TEST(UntaggedTest, HostCodeCallingAHelperDoesNotTagIt) {
  TestTU TU("int sq(int x) { return x * x; }\n"
            "int main() { return sq(3); }\n");
  EXPECT_TRUE(offsets(TU).empty());
}

TEST(UntaggedTest, OnlyADeviceBodyNamingAnUntaggedFunctionCostsAParse) {
  TestTU Plain("int sq(int x) { return x * x; }\n"
               "__global__ void k(int *o) { o[0] = 2 * o[1]; }\n"
               "int main() { return sq(3); }\n");
  auto Slice = Plain.slice();
  ASSERT_TRUE(bool(Slice)) << llvm::toString(Slice.takeError());
  EXPECT_FALSE(mayCallUntaggedHelper(Plain.scanned(), *Slice));
  // Qualified by a namespace (or an alias of one) that holds no untagged
  // function of that name: cooperative groups' reduce, not the file's.
  TestTU Namesake("namespace cg = cooperative_groups;\n"
                  "template <class T> void reduce(T *p) {}\n"
                  "__global__ void k(int *o) { o[0] = cg::reduce(o[1]); }\n");
  auto NSlice = Namesake.slice();
  ASSERT_TRUE(bool(NSlice)) << llvm::toString(NSlice.takeError());
  EXPECT_FALSE(mayCallUntaggedHelper(Namesake.scanned(), *NSlice));
  TestTU Aliased("namespace lib { inline namespace v1 { int sq(int); } }\n"
                 "namespace L = ::lib;\n"
                 "__global__ void k(int *o) { o[0] = L::sq(o[1]); }\n");
  auto ASlice = Aliased.slice();
  ASSERT_TRUE(bool(ASlice)) << llvm::toString(ASlice.takeError());
  EXPECT_TRUE(mayCallUntaggedHelper(Aliased.scanned(), *ASlice));
}

} // namespace
