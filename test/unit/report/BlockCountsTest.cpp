//===- BlockCountsTest.cpp - What a block executes of guarded code -------===//
//
// The PTX is GuardedPtx.h's kernel: a lane-0 shared store, the
// first warp's shared load, thread 0's global store, an if-else on
// threadIdx.x < 64, a load predicated on threadIdx.x + 256 < 300 and a
// store predicated on a loaded value. Expected figures are worked out from
// the code, thread by thread.
//
//===----------------------------------------------------------------------===//
#include "report/BlockCounts.h"

#include "GuardedPtx.h"

#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

constexpr const char *Ptx = GuardedKernelPtx;

BlockCounts at(Dim3 Block) {
  auto Kernels = countPtx(Ptx);
  EXPECT_TRUE(bool(Kernels));
  return blockCounts((*Kernels)[0], Block);
}

TEST(BlockCountsTest, GuardedPartsCountForTheThreadsThatRunThem) {
  BlockCounts B = at({256, 1, 1});
  EXPECT_EQ(B.Threads, 256u);
  EXPECT_EQ(B.Warps, 8u);
  // Everyone's load and the 44 threads below 300 - 256.
  EXPECT_DOUBLE_EQ(B.GlobalLoads.Bytes, 4 * 256 + 4 * 44);
  EXPECT_DOUBLE_EQ(B.GlobalLoads.WarpInstructions, 8 + 2);
  // Thread 0, the 192 threads at 64 and above (4 bytes), the 64 below (8),
  // and the store whose predicate is loaded, counted for everyone.
  EXPECT_DOUBLE_EQ(B.GlobalStores.Bytes, 4 + 4 * 192 + 8 * 64 + 4 * 256);
  // One lane a warp stores, the first warp loads.
  EXPECT_DOUBLE_EQ(B.SharedStores.Bytes, 4 * 8);
  EXPECT_DOUBLE_EQ(B.SharedStores.WarpInstructions, 8);
  EXPECT_DOUBLE_EQ(B.SharedLoads.Bytes, 4 * 32);
  EXPECT_DOUBLE_EQ(B.SharedLoads.WarpInstructions, 1);
  // 23 instructions a warp, less what each warp skips: the first warp's
  // part (3) and thread 0's (1) in 7 warps, the if (2) in 2, the else (1)
  // and the predicated load (1) in 6.
  EXPECT_DOUBLE_EQ(B.WarpInstructions, 23 * 8 - 3 * 7 - 1 * 7 - 2 * 2 - 6 - 6);
  // The first warp skips only the if.
  EXPECT_DOUBLE_EQ(B.LongestWarp, 23 - 2);
}

TEST(BlockCountsTest, TwoDimensionalBlocksCountEveryRow) {
  // The guards read threadIdx.x alone: (threadIdx.x & 31) == 0 holds at
  // the start of each of the 16 rows, and a warp is two rows, so each of
  // the 8 warps issues the shared store for two of its lanes.
  BlockCounts B = at({16, 16, 1});
  EXPECT_DOUBLE_EQ(B.SharedStores.Bytes, 4 * 16);
  EXPECT_DOUBLE_EQ(B.SharedStores.WarpInstructions, 8);
  // threadIdx.x < 32 everywhere: every warp runs the first warp's part.
  EXPECT_DOUBLE_EQ(B.SharedLoads.WarpInstructions, 8);
  // Every thread is below 64 (the else, 8 bytes) and below 300 - 256.
  EXPECT_DOUBLE_EQ(B.GlobalStores.Bytes, 4 * 16 + 8 * 256 + 4 * 256);
  EXPECT_DOUBLE_EQ(B.GlobalLoads.Bytes, 4 * 256 + 4 * 256);
}

TEST(BlockCountsTest, ComparisonsCombinedWithPredicates) {
  // %p3 = threadIdx.x < 64 and not threadIdx.x < 32: threads 32 to 63;
  // %p5, the second result of a comparison with 16, its negation.
  const KernelCounts K = entryWith(R"(
	mov.u32 	%r1, %tid.x;
	setp.lt.u32 	%p2, %r1, 32;
	setp.lt.and.u32 	%p3, %r1, 64, !%p2;
	@%p3 st.global.u32 	[%rd1], %r1;
	setp.lt.u32 	%p4|%p5, %r1, 16;
	@%p5 st.global.u64 	[%rd1], %rd2;
)");
  BlockCounts B = blockCounts(K, {256, 1, 1});
  EXPECT_DOUBLE_EQ(B.GlobalStores.Bytes, 4 * 32 + 8 * 240);
  EXPECT_DOUBLE_EQ(B.GlobalStores.WarpInstructions, 1 + 8);
}

TEST(BlockCountsTest, UnguardedCountsScaleWithThreadsAndWarps) {
  KernelCounts C;
  C.GlobalLoads = {2, 8};
  C.Instructions = 10;
  C.FpInstructions[unsigned(FpType::F32)] = 3;
  // 48 threads are two warps, one of them half full.
  BlockCounts B = blockCounts(C, {48, 1, 1});
  EXPECT_EQ(B.Warps, 2u);
  EXPECT_DOUBLE_EQ(B.GlobalLoads.Bytes, 8 * 48);
  EXPECT_DOUBLE_EQ(B.GlobalLoads.WarpInstructions, 2 * 2);
  EXPECT_DOUBLE_EQ(B.WarpInstructions, 20);
  EXPECT_DOUBLE_EQ(B.fpWarpInstructions(FpType::F32), 6);
  EXPECT_DOUBLE_EQ(B.LongestWarp, 10);
}

TEST(BlockCountsTest, DamagedPtxNeverCrashes) {
  // Every line removed in turn, and every line cut after each of its
  // characters: the reading may fail, but never crashes, and what it reads
  // evaluates for any block.
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Ptx).split(Lines, '\n');
  auto Check = [](const std::string &Text) {
    auto Kernels = countPtx(Text);
    if (!Kernels) {
      llvm::consumeError(Kernels.takeError());
      return;
    }
    for (const KernelCounts &K : *Kernels)
      for (Dim3 Block : {Dim3{1, 1, 1}, Dim3{33, 2, 1}, Dim3{1024, 1, 1}}) {
        BlockCounts B = blockCounts(K, Block);
        EXPECT_LE(B.LongestWarp, double(K.Instructions));
        EXPECT_GE(B.GlobalLoads.Bytes, 0);
      }
  };
  for (size_t Skip = 0; Skip < Lines.size(); ++Skip) {
    std::string Text;
    for (size_t I = 0; I < Lines.size(); ++I)
      if (I != Skip)
        Text += Lines[I].str() + "\n";
    Check(Text);
    for (size_t Cut = 0; Cut < Lines[Skip].size(); ++Cut) {
      std::string Damaged;
      for (size_t I = 0; I < Lines.size(); ++I)
        Damaged += (I == Skip ? Lines[I].take_front(Cut) : Lines[I]).str() +
                   "\n";
      Check(Damaged);
    }
  }
}

} // namespace
