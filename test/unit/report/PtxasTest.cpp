//===- PtxasTest.cpp - Reading ptxas -v -----------------------------------===//
#include "report/Ptxas.h"

#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

// nvcc 13.0, -cubin -arch=sm_75 -Xptxas -v: a spilling template kernel in
// a namespace, a non-inlined device function, and a kernel with shared
// memory and barriers.
constexpr const char *Sm75Log =
    R"(ptxas info    : 4096 bytes gmem, 256 bytes cmem[3], 8 bytes cmem[4]
ptxas info    : Compiling entry function '_ZN2ns3bigILi200EEEvPKfPf' for 'sm_75'
ptxas info    : Function properties for _ZN2ns3bigILi200EEEvPKfPf
    1232 bytes stack frame, 388 bytes spill stores, 384 bytes spill loads
ptxas info    : Used 128 registers, used 0 barriers, 1232 bytes cumulative stack size, 368 bytes cmem[0]
ptxas info    : Compile time = 243.966 ms
ptxas info    : Function properties for _Z6helperf
    16 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads
ptxas info    : Compiling entry function '_Z6simpleP6float4Pdi' for 'sm_75'
ptxas info    : Function properties for _Z6simpleP6float4Pdi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 23 registers, used 1 barriers, 1280 bytes smem, 372 bytes cmem[0], 12 bytes cmem[2]
ptxas info    : Compile time = 2.962 ms
)";

// sm_90 lists no constant banks.
constexpr const char *Sm90Log = R"(ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z12stencil_metaPKfPf' for 'sm_90'
ptxas info    : Function properties for _Z12stencil_metaPKfPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 30 registers, used 1 barriers, 4160 bytes smem
ptxas info    : Compile time = 13.721 ms
)";

TEST(PtxasTest, ReadsEveryFigureOfEachEntry) {
  auto Kernels = parsePtxasLog(Sm75Log);
  ASSERT_TRUE(bool(Kernels)) << llvm::toString(Kernels.takeError());
  ASSERT_EQ(Kernels->size(), 2u);
  const KernelResources &Big = (*Kernels)[0];
  EXPECT_EQ(Big.Mangled, "_ZN2ns3bigILi200EEEvPKfPf");
  EXPECT_EQ(Big.Registers, 128u);
  EXPECT_EQ(Big.Barriers, 0u);
  EXPECT_EQ(Big.StackBytes, 1232u);
  EXPECT_EQ(Big.SpillStoreBytes, 388u);
  EXPECT_EQ(Big.SpillLoadBytes, 384u);
  EXPECT_EQ(Big.StaticSharedBytes, 0u);
  EXPECT_EQ(Big.ConstantBytes, 368u);

  // The device function's properties belong to no kernel.
  const KernelResources &Simple = (*Kernels)[1];
  EXPECT_EQ(Simple.Mangled, "_Z6simpleP6float4Pdi");
  EXPECT_EQ(Simple.Registers, 23u);
  EXPECT_EQ(Simple.Barriers, 1u);
  EXPECT_EQ(Simple.StackBytes, 0u);
  EXPECT_EQ(Simple.SpillStoreBytes, 0u);
  EXPECT_EQ(Simple.StaticSharedBytes, 1280u);
  EXPECT_EQ(Simple.ConstantBytes, 384u);
}

TEST(PtxasTest, Sm90ListsNoConstantBanks) {
  auto Kernels = parsePtxasLog(Sm90Log);
  ASSERT_TRUE(bool(Kernels));
  ASSERT_EQ(Kernels->size(), 1u);
  EXPECT_EQ((*Kernels)[0].Registers, 30u);
  EXPECT_EQ((*Kernels)[0].StaticSharedBytes, 4160u);
  EXPECT_EQ((*Kernels)[0].ConstantBytes, 0u);
}

TEST(PtxasTest, MalformedFiguresAreErrors) {
  auto Kernels =
      parsePtxasLog("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                    "ptxas info    : Used many registers\n");
  ASSERT_FALSE(bool(Kernels));
  EXPECT_NE(llvm::toString(Kernels.takeError()).find("Used many registers"),
            std::string::npos);
  auto Orphan = parsePtxasLog("ptxas info    : Used 3 registers\n");
  EXPECT_FALSE(bool(Orphan));
  llvm::consumeError(Orphan.takeError());
}

TEST(PtxasTest, WarningsAndOtherLinesAreIgnored) {
  auto Kernels = parsePtxasLog(
      "ptxas warning : Registers are spilled to local memory in function "
      "'k', 8 bytes spill stores, 8 bytes spill loads\n" +
      std::string(Sm90Log));
  ASSERT_TRUE(bool(Kernels));
  EXPECT_EQ(Kernels->size(), 1u);
}

// ptxas lists a called function's frame apart from the kernel's, after it.
TEST(PtxasTest, OtherFunctionsFramesAreKeptApart) {
  std::vector<KernelResources> Functions;
  auto Kernels = parsePtxasLog(
      "ptxas info    : Compiling entry function 'k' for 'sm_80'\n"
      "ptxas info    : Function properties for k\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 26 registers, used 0 barriers, 368 bytes "
      "cmem[0]\n"
      "ptxas info    : Function properties for _Z5depthPKjj\n"
      "    32 bytes stack frame, 24 bytes spill stores, 16 bytes spill "
      "loads\n",
      &Functions);
  ASSERT_TRUE(bool(Kernels)) << llvm::toString(Kernels.takeError());
  ASSERT_EQ(Kernels->size(), 1u);
  EXPECT_EQ((*Kernels)[0].StackBytes, 0u);
  ASSERT_EQ(Functions.size(), 1u);
  EXPECT_EQ(Functions[0].Mangled, "_Z5depthPKjj");
  EXPECT_EQ(Functions[0].StackBytes, 32u);
  EXPECT_EQ(Functions[0].SpillStoreBytes, 24u);
  EXPECT_EQ(Functions[0].SpillLoadBytes, 16u);
}

TEST(PtxasTest, KernelNamesAreUnqualifiedAsWritten) {
  EXPECT_EQ(kernelName("_ZN2ns3bigILi200EEEvPKfPf"), "big");
  EXPECT_EQ(kernelName("_Z4axpyfPKfPf"), "axpy");
  EXPECT_EQ(kernelName("_Z16stencil_templateILi256ELi4EEvPKfPf"),
            "stencil_template");
  EXPECT_EQ(kernelName("my_c_kernel"), "my_c_kernel");
}

} // namespace
