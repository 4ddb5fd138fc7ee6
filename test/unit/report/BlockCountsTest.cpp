//===- BlockCountsTest.cpp - What a block executes of guarded code -------===//
//
// The PTX is ReportKernels.h's kernel: a lane-0 shared store, the
// first warp's shared load, thread 0's global store, an if-else on
// threadIdx.x < 64, a load predicated on threadIdx.x + 256 < 300 and a
// store predicated on a loaded value. Expected figures are worked out from
// the code, thread by thread.
//
//===----------------------------------------------------------------------===//
#include "report/BlockCounts.h"

#include "ReportKernels.h"

#include "llvm/ADT/StringExtras.h"

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

// A staging kernel's shared accesses: a module's and an entry's arrays,
// a division by a constant (mul.hi) into rows of 20 floats at a pitch of
// 24, generic addresses, a guarded vector store.
constexpr const char *SharedPtx = R"(
.extern .shared .align 16 .b8 dynamic_smem[];
.visible .entry staged()
{
	.shared .align 4 .b8 tile[2880];
	mov.u32 	%r1, %tid.x;
	mul.hi.s32 	%r2, %r1, 1717986919;
	shr.s32 	%r3, %r2, 3;
	shl.b32 	%r7, %r1, 2;
	mad.lo.s32 	%r4, %r3, 16, %r7;
	mov.u32 	%r5, tile;
	add.s32 	%r6, %r5, %r4;
	st.shared.f32 	[%r6+-4], %f1;
	bar.sync 	0;
	mov.u64 	%rd1, dynamic_smem;
	cvta.shared.u64 	%rd2, %rd1;
	cvta.to.shared.u64 	%rd3, %rd2;
	setp.lt.u32 	%p1, %r1, 40;
	@%p1 st.shared.v4.f32 	[%rd3+16], {%f1, %f2, %f3, %f4};
	ld.shared.v2.f32 	{%f5, %f6}, [tile+8];
	ret;
}
)";

// Every line removed in turn, and every line cut wherever a word (an
// opcode's part, a register, a number, a name) begins or ends: the reading
// may fail, but never crashes, and what it reads evaluates for any block of
// a 3D grid. Not at every character: each cut is a whole reading, and a cut
// inside a word reads as another word, which the reader takes as it takes
// any word.
bool isTokenChar(char C) {
  return llvm::isAlnum(C) || C == '_' || C == '%';
}

void readsDamagedPtx(llvm::StringRef Ptx) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Ptx.split(Lines, '\n');
  auto Check = [](const std::string &Text) {
    auto Kernels = countPtx(Text);
    if (!Kernels) {
      llvm::consumeError(Kernels.takeError());
      return;
    }
    for (const KernelCounts &K : *Kernels)
      for (Dim3 Block : {Dim3{1, 1, 1}, Dim3{33, 2, 1}, Dim3{1024, 1, 1}}) {
        BlockCounts B = blockCounts(K, Block, Dim3{3, 4, 2}, 50u << 20);
        EXPECT_LE(B.LongestWarp, double(K.Instructions));
        EXPECT_GE(B.GlobalLoads.Bytes, 0);
        EXPECT_GE(B.SharedConflictPasses, 0);
        EXPECT_LE(B.ReusedSectors, B.LoadSectors);
      }
  };
  for (size_t Skip = 0; Skip < Lines.size(); ++Skip) {
    std::string Text;
    for (size_t I = 0; I < Lines.size(); ++I)
      if (I != Skip)
        Text += Lines[I].str() + "\n";
    Check(Text);
    llvm::StringRef Line = Lines[Skip];
    for (size_t Cut = 0; Cut < Line.size(); ++Cut) {
      if (Cut > 0 && isTokenChar(Line[Cut - 1]) == isTokenChar(Line[Cut]))
        continue;
      std::string Damaged;
      for (size_t I = 0; I < Lines.size(); ++I)
        Damaged += (I == Skip ? Lines[I].take_front(Cut) : Lines[I]).str() +
                   "\n";
      Check(Damaged);
    }
  }
}

TEST(BlockCountsTest, DamagedPtxNeverCrashes) {
  readsDamagedPtx(Ptx);
  readsDamagedPtx(SharedPtx);
  readsDamagedPtx(ColumnStencilPtx);
}

TEST(BlockCountsTest, AStagingKernelsSharedAccessesAreAllKnown) {
  auto Kernels = countPtx(SharedPtx);
  ASSERT_TRUE(bool(Kernels));
  EXPECT_EQ((*Kernels)[0].SharedAccesses.size(), 3u);
  // Thread t stores at word t + 4 * (t / 20) - 1: rows of 20 words at a
  // pitch of 24, so each warp's 32 lanes cross a row's end and two of its
  // words share a bank (2 passes, 1 extra, in each of 8 warps). The vector
  // store's lanes all write one 16-byte slot and the 8-byte load reads one
  // for every lane: no conflicts.
  EXPECT_EQ(blockCounts((*Kernels)[0], {256, 1, 1}).SharedConflictPasses, 8);
}

double conflicts(const KernelCounts &K, Dim3 Block) {
  return blockCounts(K, Block).SharedConflictPasses;
}

TEST(BlockCountsTest, SharedBankConflictsLaneByLane) {
  const std::string Linear = "\tmov.u32 %r3, %r1;\n";
  // Consecutive words, and every lane on one word (a broadcast): one pass.
  EXPECT_EQ(conflicts(sharedRead(Linear, 4), {256, 1, 1}), 0);
  EXPECT_EQ(conflicts(sharedRead("\tmov.u32 %r3, 7;\n", 4), {256, 1, 1}), 0);
  // A stride of 2 words puts two lanes in each even bank: 2 passes a warp,
  // 1 more than without conflicts, in each of 8 warps; a stride of 32
  // words, all 32 lanes in bank 0: 31 more.
  EXPECT_EQ(conflicts(sharedRead("\tshl.b32 %r3, %r1, 1;\n", 4), {256, 1, 1}),
            8);
  EXPECT_EQ(conflicts(sharedRead("\tshl.b32 %r3, %r1, 5;\n", 4), {64, 1, 1}),
            2 * 31);
  // 8 and 16 bytes a lane, consecutive: 2 and 4 passes a warp, none extra.
  EXPECT_EQ(conflicts(sharedRead(Linear, 8), {256, 1, 1}), 0);
  EXPECT_EQ(conflicts(sharedRead(Linear, 16), {256, 1, 1}), 0);
  // 16 bytes at a stride of 2 vectors: each group of 8 lanes spans 256
  // bytes, two words in every bank.
  EXPECT_EQ(conflicts(sharedRead("\tshl.b32 %r3, %r1, 1;\n", 16), {32, 1, 1}),
            4);
}

TEST(BlockCountsTest, ASharedLoadOfOneAddressInAWarpIsABroadcast) {
  // Every lane on word 7: 8 warps broadcast 4 bytes to 32 lanes each.
  BlockCounts One =
      blockCounts(sharedRead("\tmov.u32 %r3, 7;\n", 16), {256, 1, 1});
  EXPECT_EQ(One.SharedBroadcasts.WarpInstructions, 8);
  EXPECT_EQ(One.SharedBroadcasts.Bytes, 256 * 16);
  // Consecutive words are no broadcast.
  EXPECT_EQ(blockCounts(sharedRead("\tmov.u32 %r3, %r1;\n", 4), {256, 1, 1})
                .SharedBroadcasts.WarpInstructions,
            0);
  // A row's word (batched_mm's row of A): a warp of one row broadcasts, a
  // warp over two rows (16 wide) does not, nor does a warp of 16 lanes.
  KernelCounts Row = sharedRead("\tmov.u32 %r3, %r2;\n", 4);
  EXPECT_EQ(blockCounts(Row, {32, 8, 1}).SharedBroadcasts.WarpInstructions, 8);
  EXPECT_EQ(blockCounts(Row, {16, 16, 1}).SharedBroadcasts.WarpInstructions, 0);
  EXPECT_EQ(blockCounts(Row, {16, 1, 1}).SharedBroadcasts.WarpInstructions, 0);
  // Every lane storing to one word is no broadcast.
  KernelCounts Store = entryWith(
      "\t.shared .align 4 .b8 smem[1024];\n\tmov.u32 %r5, smem;\n"
      "\tadd.s32 %r6, %r5, 28;\n\tst.shared.f32 [%r6], %f1;\n");
  EXPECT_EQ(blockCounts(Store, {256, 1, 1}).SharedBroadcasts.WarpInstructions,
            0);
}

TEST(BlockCountsTest, RowsOfAWarpConflictByTheirPitch) {
  // The stencil sample's column reads in a 16-wide block: row y at
  // y * 2 * 20 + x words. A warp's two rows are 40 words apart, 8 banks
  // on: lanes 8 to 15 of the first row share their banks with lanes 0 to 7
  // of the second (2 passes); a pitch of 32 words is 0 banks on (2
  // passes), 48 is 16 on (1 pass).
  auto Rows = [](unsigned Pitch) {
    return sharedRead("\tmad.lo.s32 %r3, %r2, " + std::to_string(Pitch) +
                          ", %r1;\n",
                      4);
  };
  EXPECT_EQ(conflicts(Rows(40), {16, 16, 1}), 8);
  EXPECT_EQ(conflicts(Rows(32), {16, 16, 1}), 8);
  EXPECT_EQ(conflicts(Rows(48), {16, 16, 1}), 0);
  // 32 wide, a warp is one row.
  EXPECT_EQ(conflicts(Rows(40), {32, 8, 1}), 0);
}

TEST(BlockCountsTest, OnlyActiveLanesConflict) {
  // A stride of 32 words where only threadIdx.x < 4 read: 4 lanes in bank
  // 0, in the first warp alone.
  const std::string Guarded = "\tsetp.lt.u32 %p1, %r1, 4;\n\t@!%p1 bra $L__end;\n";
  KernelCounts K = entryWith(
      "\t.shared .align 4 .b8 smem[16384];\n\tmov.u32 %r1, %tid.x;\n"
      "\tshl.b32 %r3, %r1, 7;\n\tmov.u32 %r5, smem;\n"
      "\tadd.s32 %r6, %r5, %r3;\n" +
      Guarded + "\tld.shared.f32 %f1, [%r6];\n$L__end:\n");
  EXPECT_EQ(conflicts(K, {128, 1, 1}), 3);
}

BlockCounts column(Dim3 Grid, uint64_t L2Bytes) {
  auto Kernels = countPtx(ColumnStencilPtx);
  EXPECT_TRUE(bool(Kernels));
  return blockCounts((*Kernels)[0], {32, 8, 1}, Grid, L2Bytes);
}

TEST(BlockCountsTest, NeighboursLoadsComeBeforeABlocks) {
  // A block loads rows y0 - 1 to y0 + 8 of 32 floats: 10 rows of 4
  // sectors. The block a row of blocks before it loaded rows y0 - 9 to
  // y0: two of them, 8 sectors; the one before it in x, other columns.
  BlockCounts B = column({8, 16, 1}, 50u << 20);
  EXPECT_EQ(B.KnownLoadBytes, 3 * 4 * 256);
  EXPECT_EQ(B.LoadSectors, 40);
  EXPECT_EQ(B.ReusedSectors, 8);
  // Without the grid, or with a 1D one, nothing is compared.
  EXPECT_EQ(column({128, 1, 1}, 50u << 20).ReusedSectors, 0);
  auto Kernels = countPtx(ColumnStencilPtx);
  ASSERT_TRUE(bool(Kernels));
  EXPECT_EQ(blockCounts((*Kernels)[0], {32, 8, 1}).LoadSectors, 0);
}

TEST(BlockCountsTest, NeighboursTooFarBackHaveLeftL2) {
  // 8 blocks of 40 sectors (10 KiB) load between a block and the one a
  // row before it: with 16 KiB of L2 (half of it taken for that), their
  // rows are gone.
  EXPECT_EQ(column({8, 16, 1}, 16 << 10).ReusedSectors, 0);
  EXPECT_EQ(column({8, 16, 1}, 32 << 10).ReusedSectors, 8);
}

BlockCounts tileMove(bool Transposed, std::optional<Dim3> Grid) {
  auto Kernels = countPtx(tileMovePtx(Transposed));
  EXPECT_TRUE(bool(Kernels));
  return blockCounts((*Kernels)[0], {16, 4, 1}, Grid, 50u << 20);
}

TEST(BlockCountsTest, RunsThatNoBlockBesideContinuesEnd) {
  // A block reads 4 rows of 16 floats (2 sectors each) that the blocks
  // before and after it in x continue: no ends. Transposed, it writes 4
  // rows of 64 bytes that theirs (other rows) do not: 2 ends a row.
  BlockCounts T = tileMove(true, Dim3{512, 512, 1});
  EXPECT_EQ(T.RunSectors[0], 8);
  EXPECT_EQ(T.RunEnds[0], 0);
  EXPECT_EQ(T.RunSectors[1], 8);
  EXPECT_EQ(T.RunEnds[1], 8);
  // Copied, its rows run on into its neighbours' like the reads.
  BlockCounts C = tileMove(false, Dim3{512, 512, 1});
  EXPECT_EQ(C.RunSectors[1], 8);
  EXPECT_EQ(C.RunEnds[1], 0);
  // A grid one block wide: the blocks beside it in the launch's order are
  // the rows below and above, which continue nothing of its rows.
  EXPECT_EQ(tileMove(false, Dim3{1, 512, 1}).RunEnds[0], 8);
  // Without a grid nothing is compared.
  EXPECT_EQ(tileMove(true, std::nullopt).RunSectors[1], 0);
}

TEST(BlockCountsTest, LoopBodiesCountOncePerPass) {
  // for (i = 0; i < 4; ++i) { load; for (j = 0; j < 16; j += 2) s[2 tid] }:
  // 5 instructions before, 2 + 3 in the outer body, 5 in the inner one.
  // The shared load's lanes are 8 bytes apart: a 2-way conflict a pass.
  const KernelCounts K = entryWith(R"(
	.shared .align 4 .b8 s[1024];
	mov.u32 	%r1, %tid.x;
	shl.b32 	%r2, %r1, 3;
	mov.u32 	%r3, s;
	add.s32 	%r4, %r3, %r2;
	mov.u32 	%r10, 0;
$L__BB0_1:
	mov.u32 	%r11, 0;
	ld.global.f32 	%f9, [%rd1];
$L__BB0_2:
	ld.shared.f32 	%f1, [%r4];
	add.f32 	%f2, %f2, %f1;
	add.s32 	%r11, %r11, 2;
	setp.lt.s32 	%p1, %r11, 16;
	@%p1 bra 	$L__BB0_2;
	add.s32 	%r10, %r10, 1;
	setp.ne.s32 	%p2, %r10, 4;
	@%p2 bra 	$L__BB0_1;
)");
  BlockCounts B = blockCounts(K, {64, 1, 1});
  ASSERT_EQ(B.LoopTrips.size(), 2u);
  EXPECT_EQ(B.LoopTrips[0], 8.0);
  EXPECT_EQ(B.LoopTrips[1], 4.0);
  EXPECT_DOUBLE_EQ(B.LongestWarp, 5 + 4 * (5 + 8 * 5));
  EXPECT_DOUBLE_EQ(B.WarpInstructions, 2 * (5 + 4 * (5 + 8 * 5)));
  EXPECT_DOUBLE_EQ(B.SharedLoads.WarpInstructions, 2 * 4 * 8);
  EXPECT_DOUBLE_EQ(B.SharedLoads.Bytes, 64 * 4 * 4 * 8);
  EXPECT_DOUBLE_EQ(B.GlobalLoads.Bytes, 64 * 4 * 4);
  EXPECT_DOUBLE_EQ(B.fpWarpInstructions(FpType::F32), 2 * 4 * 8);
  EXPECT_DOUBLE_EQ(B.SharedConflictPasses, 2 * 4 * 8);
}

TEST(BlockCountsTest, RoundsOutsideLoopsUnlessALoopMakesMorePasses) {
  // The code outside loops waits for its rounds in a row (PtxCounts::
  // loadRounds); a loop that loads in more passes sets the rounds instead.
  KernelCounts K;
  K.GlobalLoads = {9, 36};
  K.LoadRounds = 3;
  EXPECT_DOUBLE_EQ(blockCounts(K, {256, 1, 1}).LoadRounds, 3);
  KernelCounts Loop = entryWith(R"(
	ld.global.f32 	%f1, [%rd1];
	mov.u32 	%r2, 0;
$L__BB0_1:
	ld.global.f32 	%f2, [%rd1+4];
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p1, %r2, 16;
	@%p1 bra 	$L__BB0_1;
)");
  Loop.LoadRounds = 3;
  EXPECT_DOUBLE_EQ(blockCounts(Loop, {32, 1, 1}).LoadRounds, 16);
}

TEST(BlockCountsTest, ALoopWithoutATripCountCountsOnce) {
  const KernelCounts K = entryWith(R"(
$L__BB0_1:
	ld.global.u32 	%r2, [%rd1];
	setp.ne.s32 	%p1, %r2, 0;
	@%p1 bra 	$L__BB0_1;
)");
  BlockCounts B = blockCounts(K, {32, 1, 1});
  ASSERT_EQ(B.LoopTrips.size(), 1u);
  EXPECT_FALSE(B.LoopTrips[0]);
  EXPECT_DOUBLE_EQ(B.WarpInstructions, 3);
}

TEST(BlockCountsTest, LanesThatShareARangeCountItsBodyOnceBetweenThem) {
  // A loop of unknown length whose pointer steps past what a pass loads,
  // 32 lanes to a range (the vector CSR kernel's many lanes a row): its
  // body's bytes count once for the 32 lanes together, as one lane walking
  // the same range alone would load them; with a step of what it loads,
  // once a lane.
  auto Loaded = [](int Step) {
    const KernelCounts K = entryWith(R"(
$L__BB0_1:
	ld.global.nc.f32 	%f1, [%rd1];
	add.s64 	%rd1, %rd1, )" +
                                     std::to_string(Step) + R"(;
	setp.lt.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_1;
)");
    BlockCounts B = blockCounts(K, {256, 1, 1});
    EXPECT_FALSE(B.LoopTrips[0]);
    return B.GlobalLoads.Bytes;
  };
  EXPECT_DOUBLE_EQ(Loaded(4), 256 * 4);
  EXPECT_DOUBLE_EQ(Loaded(128), 256 * 4 / 32);
}

TEST(BlockCountsTest, AGridStrideLoopReadsTheLaunch) {
  // i = blockIdx.x * 64 + threadIdx.x; i < 4096; i += gridDim.x * 64: in a
  // grid of 16 blocks every thread makes 4 passes, in one of 8, 8.
  const KernelCounts K = entryWith(R"(
	mov.u32 	%r1, %ctaid.x;
	shl.b32 	%r2, %r1, 6;
	mov.u32 	%r3, %tid.x;
	add.s32 	%r4, %r2, %r3;
	mov.u32 	%r5, %nctaid.x;
	shl.b32 	%r6, %r5, 6;
$L__BB0_1:
	ld.global.f32 	%f1, [%rd1];
	add.s32 	%r4, %r4, %r6;
	setp.lt.s32 	%p1, %r4, 4096;
	@%p1 bra 	$L__BB0_1;
)");
  EXPECT_EQ(blockCounts(K, {64, 1, 1}, Dim3{16, 1, 1}).LoopTrips[0], 4.0);
  BlockCounts Eight = blockCounts(K, {64, 1, 1}, Dim3{8, 1, 1});
  EXPECT_EQ(Eight.LoopTrips[0], 8.0);
  EXPECT_DOUBLE_EQ(Eight.GlobalLoads.Bytes, 64 * 4 * 8);
}

TEST(BlockCountsTest, APassFindsWhatThePassBeforeLoaded) {
  // A column marching down rows of 4096 bytes, 16 passes: each pass loads
  // its row and the next, so after the first pass one row of the two is
  // new. The block's 32 threads load 128 bytes a row: 4 sectors. The loop
  // loads, so a thread waits 16 times in a row.
  const KernelCounts K = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	mov.u32 	%r2, 0;
$L__BB0_1:
	ld.global.f32 	%f1, [%rd4];
	ld.global.f32 	%f2, [%rd4+4096];
	add.s64 	%rd4, %rd4, 4096;
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p1, %r2, 16;
	@%p1 bra 	$L__BB0_1;
)");
  ASSERT_EQ(K.Loops.size(), 1u);
  EXPECT_EQ(K.Loops[0].Inductions.size(), 2u);
  BlockCounts B = blockCounts(K, {32, 1, 1}, Dim3{1, 1, 1}, 50 << 20);
  EXPECT_DOUBLE_EQ(B.KnownLoadBytes, 32 * 8 * 16);
  // 8 sectors in the first pass, 4 new in each of the 15 others.
  EXPECT_DOUBLE_EQ(B.LoadSectors, 8 + 4 * 15);
  EXPECT_DOUBLE_EQ(B.LoadRounds, 16);
  // It stores nothing; the grid-stride loop above neither.
  EXPECT_FALSE(B.LoadRoundsStore);
  // The 4 sectors of each pass after the first that the pass before
  // loaded are rereads one pass (8 sectors) apart; 8 sectors a pass in
  // all.
  EXPECT_DOUBLE_EQ(B.RereadSectors, 4 * 15);
  EXPECT_DOUBLE_EQ(B.RereadDistance, 8);
  EXPECT_DOUBLE_EQ(B.SectorLoads, 8 * 16);
  EXPECT_DOUBLE_EQ(B.RereadRounds, 0);
}

TEST(BlockCountsTest, ALoopWalkingWhatALoopBeforeLoadedRereadsIt) {
  // Two loops of 64 passes walk the block's row, 4 sectors a pass: the
  // second loads again the 256 sectors the first did, a whole loop (256
  // sectors) apart on average, and its passes wait after the first's.
  auto Kernels = countPtx(TwoWalksPtx);
  ASSERT_TRUE(bool(Kernels));
  ASSERT_EQ((*Kernels)[0].Loops.size(), 2u);
  BlockCounts B = blockCounts((*Kernels)[0], {32, 1, 1}, Dim3{8, 1, 1});
  EXPECT_DOUBLE_EQ(B.LoadSectors, 256);
  EXPECT_DOUBLE_EQ(B.RereadSectors, 256);
  EXPECT_DOUBLE_EQ(B.RereadDistance, 256);
  EXPECT_DOUBLE_EQ(B.SectorLoads, 512);
  EXPECT_DOUBLE_EQ(B.LoadRounds, 64);
  EXPECT_DOUBLE_EQ(B.RereadRounds, 64);
  // Without a grid no addresses are evaluated: no rereads.
  BlockCounts Alone = blockCounts((*Kernels)[0], {32, 1, 1});
  EXPECT_DOUBLE_EQ(Alone.RereadSectors, 0);
  EXPECT_DOUBLE_EQ(Alone.RereadRounds, 0);
}

TEST(BlockCountsTest, ANestedLoopFindsWhatTheOuterPassBeforeLoaded) {
  // batched_mm's form: an outer loop of 8 passes loads a float of A's
  // row k (one sector, new each pass); an inner loop of 4 passes walks
  // the same 4 rows of B for every outer pass (4 sectors a row). After the
  // first outer pass the inner loop finds every sector in L1: B's 16
  // sectors count once, not once per outer pass, and its passes wait for
  // DRAM only in the first outer pass, so a thread waits 8 times in a row
  // (the outer loop's), not 32.
  const KernelCounts K = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.param.u64 	%rd7, [k_param_1];
	cvta.to.global.u64 	%rd8, %rd7;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd5, %rd2, %rd3;
	mov.u32 	%r3, 0;
$L__BB0_1:
	mul.wide.u32 	%rd9, %r3, 4096;
	add.s64 	%rd10, %rd8, %rd9;
	ld.global.f32 	%f3, [%rd10];
	mov.u64 	%rd4, %rd5;
	mov.u32 	%r2, 0;
$L__BB0_2:
	ld.global.f32 	%f1, [%rd4];
	add.s64 	%rd4, %rd4, 4096;
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p1, %r2, 4;
	@%p1 bra 	$L__BB0_2;
	add.s32 	%r3, %r3, 1;
	setp.lt.s32 	%p2, %r3, 8;
	@%p2 bra 	$L__BB0_1;
)");
  ASSERT_EQ(K.Loops.size(), 2u);
  ASSERT_EQ(K.Loops[0].Parent, 1u);
  BlockCounts B = blockCounts(K, {32, 1, 1}, Dim3{1, 1, 1}, 50 << 20);
  EXPECT_EQ(B.LoopTrips[0], 4.0);
  EXPECT_EQ(B.LoopTrips[1], 8.0);
  EXPECT_DOUBLE_EQ(B.KnownLoadBytes, 32 * 4 * (8 + 32));
  // A's 8 sectors, B's 16 once.
  EXPECT_DOUBLE_EQ(B.LoadSectors, 8 + 16);
  EXPECT_DOUBLE_EQ(B.LoadRounds, 8);
  // The inner loop stepping its rows on with the outer pass (B's rows k to
  // k + 3 for pass k) finds one row new each outer pass, and waits for
  // DRAM in that pass of the inner loop alone.
  const KernelCounts Sliding = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd5, %rd2, %rd3;
	mov.u32 	%r3, 0;
$L__BB0_1:
	mul.wide.u32 	%rd9, %r3, 4096;
	add.s64 	%rd4, %rd5, %rd9;
	mov.u32 	%r2, 0;
$L__BB0_2:
	ld.global.f32 	%f1, [%rd4];
	add.s64 	%rd4, %rd4, 4096;
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p1, %r2, 4;
	@%p1 bra 	$L__BB0_2;
	add.s32 	%r3, %r3, 1;
	setp.lt.s32 	%p2, %r3, 8;
	@%p2 bra 	$L__BB0_1;
)");
  BlockCounts S = blockCounts(Sliding, {32, 1, 1}, Dim3{1, 1, 1}, 50 << 20);
  // 4 rows in the first outer pass, one new row in each of the 7 others.
  EXPECT_DOUBLE_EQ(S.LoadSectors, 4 * 4 * (1 + 7 * 0.25));
  // 4 passes waiting in the first outer pass, one in each of the others.
  EXPECT_DOUBLE_EQ(S.LoadRounds, 4 * (1 + 7 * 0.25));
}

TEST(BlockCountsTest, ALoopThatLoadsAndStoresSaysSo) {
  // 8 passes, each loading a float and storing it a row on.
  const KernelCounts K = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	mov.u32 	%r2, 0;
$L__BB0_1:
	ld.global.f32 	%f1, [%rd4];
	st.global.f32 	[%rd4+4096], %f1;
	add.s64 	%rd4, %rd4, 4096;
	add.s32 	%r2, %r2, 1;
	setp.lt.s32 	%p1, %r2, 8;
	@%p1 bra 	$L__BB0_1;
)");
  BlockCounts B = blockCounts(K, {32, 1, 1}, Dim3{1, 1, 1}, 50 << 20);
  EXPECT_DOUBLE_EQ(B.LoadRounds, 8);
  EXPECT_TRUE(B.LoadRoundsStore);
  // Its store is known, in the loop.
  ASSERT_EQ(K.GlobalStoreAccesses.size(), 1u);
  EXPECT_EQ(K.GlobalStoreAccesses[0].Loop, 0u);
}

// A kernel whose threads add to the global word at Index (a PTX
// expression of %r1, threadIdx.x, and %r9, blockIdx.x, into %r3): once, or
// in a loop over b = threadIdx.x, b < 256, b += 128 (a histogram's bins
// added at a block's end) with Index reading b in %r1.
KernelCounts atomicAdds(const std::string &Index, bool Loop) {
  std::string Body = "\tld.param.u64 \t%rd1, [k_param_0];\n"
                     "\tcvta.to.global.u64 \t%rd2, %rd1;\n"
                     "\tmov.u32 \t%r1, %tid.x;\n"
                     "\tmov.u32 \t%r9, %ctaid.x;\n";
  if (Loop)
    Body += "$L__BB0_1:\n";
  Body += Index + "\tmul.wide.u32 \t%rd3, %r3, 4;\n"
                  "\tadd.s64 \t%rd4, %rd2, %rd3;\n"
                  "\tred.global.add.u32 \t[%rd4], %r5;\n";
  if (Loop)
    Body += "\tadd.s32 \t%r1, %r1, 128;\n"
            "\tsetp.lt.u32 \t%p1, %r1, 256;\n"
            "\t@%p1 bra \t$L__BB0_1;\n";
  return entryWith(Body);
}

TEST(BlockCountsTest, AnAtomicsPointerSteppedBesideItsIndexStepsOnce) {
  // nvcc steps the pointer it made from the index beside the index: 32
  // passes of a warp on words 0 to 31, one line. Stepping both registers
  // would put pass p on word 2p, two lines.
  const KernelCounts K = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	mov.u32 	%r1, %tid.x;
	and.b32  	%r2, %r1, 0;
	mul.wide.u32 	%rd3, %r2, 4;
	add.s64 	%rd4, %rd2, %rd3;
$L__BB0_1:
	red.global.add.u32 	[%rd4], %r5;
	add.s64 	%rd4, %rd4, 4;
	add.s32 	%r2, %r2, 1;
	setp.lt.u32 	%p1, %r2, 32;
	@%p1 bra 	$L__BB0_1;
)");
  BlockCounts B = blockCounts(K, {32, 1, 1}, Dim3{64, 1, 1});
  EXPECT_DOUBLE_EQ(B.LoopTrips[0].value_or(0), 32);
  EXPECT_DOUBLE_EQ(B.AtomicLines, 1);
  EXPECT_DOUBLE_EQ(B.AtomicUpdates, 32 * 32);
  EXPECT_DOUBLE_EQ(B.AtomicAddressUpdates, 32);
}

TEST(BlockCountsTest, AtomicsEveryBlockSendsToTheSameWordsQueue) {
  const Dim3 Grid{64, 1, 1};
  // Every thread on word 0: 128 updates of one address, one line.
  const KernelCounts One = atomicAdds("\tmov.u32 \t%r3, 0;\n", false);
  BlockCounts B = blockCounts(One, {128, 1, 1}, Grid);
  EXPECT_DOUBLE_EQ(B.AtomicUpdates, 128);
  EXPECT_DOUBLE_EQ(B.AtomicLines, 1);
  EXPECT_DOUBLE_EQ(B.AtomicAddressUpdates, 128);
  EXPECT_FALSE(B.AtomicsFloat);
  // Without a grid, which blocks share them is not known.
  EXPECT_DOUBLE_EQ(blockCounts(One, {128, 1, 1}).AtomicUpdates, 0);
  // A lane a word, the 256 words of 8 lines in two passes of 4 warps: an
  // update a word.
  const KernelCounts Bins = atomicAdds("\tmov.u32 \t%r3, %r1;\n", true);
  B = blockCounts(Bins, {128, 1, 1}, Grid);
  EXPECT_DOUBLE_EQ(B.LoopTrips[0].value_or(0), 2);
  EXPECT_DOUBLE_EQ(B.AtomicUpdates, 256);
  EXPECT_DOUBLE_EQ(B.AtomicLines, 8);
  EXPECT_DOUBLE_EQ(B.AtomicAddressUpdates, 1);
  EXPECT_TRUE(B.AtomicsAfterLoads);
  // Lanes 4 words apart: 256 words over 32 lines.
  const KernelCounts Spread = atomicAdds("\tshl.b32 \t%r3, %r1, 2;\n", true);
  B = blockCounts(Spread, {128, 1, 1}, Grid);
  EXPECT_DOUBLE_EQ(B.AtomicUpdates, 256);
  EXPECT_DOUBLE_EQ(B.AtomicLines, 32);
  // Lane l of warp w on word w: 4 warps, 4 words of one line.
  const KernelCounts Strided = atomicAdds("\tshr.u32 \t%r3, %r1, 5;\n", false);
  B = blockCounts(Strided, {128, 1, 1}, Grid);
  EXPECT_DOUBLE_EQ(B.AtomicUpdates, 128);
  EXPECT_DOUBLE_EQ(B.AtomicLines, 1);
  EXPECT_DOUBLE_EQ(B.AtomicAddressUpdates, 32);
  // A word of the block's own (blockIdx.x): no two blocks share a queue,
  // as stores.
  const KernelCounts Own = atomicAdds("\tmov.u32 \t%r3, %r9;\n", false);
  B = blockCounts(Own, {128, 1, 1}, Grid);
  EXPECT_DOUBLE_EQ(B.AtomicUpdates, 0);
  EXPECT_DOUBLE_EQ(B.AtomicAddressUpdates, 0);
}

} // namespace

