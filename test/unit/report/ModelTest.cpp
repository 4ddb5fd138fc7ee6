//===- ModelTest.cpp - The phase model ranks configurations sensibly ------===//
//
// The model is judged by rank (Spearman against measurements on a GPU), so
// these tests pin down orderings and regimes rather than microseconds: a
// streaming kernel is DRAM-bound and its time follows its bytes, a kernel
// with few bytes in flight is latency-bound and gains from occupancy, an
// FMA-heavy kernel is compute-bound and its time follows its instructions.
//
//===----------------------------------------------------------------------===//
#include "report/Model.h"

#include "ReportKernels.h"

#include <cmath>
#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

// y[i] = a * x[i] + y[i] over Items values a thread.
KernelCounts axpy(unsigned Items) {
  KernelCounts C;
  C.GlobalLoads = {2 * Items, 8ull * Items};
  C.GlobalStores = {Items, 4ull * Items};
  C.FpInstructions[unsigned(FpType::F32)] = Items;
  C.Flops[unsigned(FpType::F32)] = 2 * Items;
  C.Instructions = 3 * Items + 8;
  return C;
}

struct Modelled {
  Prediction P;
  Occupancy O;
};

// C at Threads a block and Grid blocks (an assumed wave without), Regs
// registers a thread, with Barriers barriers.
Modelled run(const KernelCounts &C, unsigned CC, unsigned Threads,
             unsigned Regs, std::optional<uint64_t> Grid,
             uint64_t StaticSmem = 0, unsigned Barriers = 0) {
  const ArchLimits &L = *archLimits(CC);
  LaunchConfig Launch;
  Launch.Block = {Threads, 1, 1};
  if (Grid)
    Launch.Grid = Dim3{unsigned(*Grid), 1, 1};
  KernelResources R;
  R.Registers = Regs;
  R.StaticSharedBytes = StaticSmem;
  R.Barriers = Barriers;
  Occupancy O =
      computeOccupancy(L, {Regs, StaticSmem, 0, std::nullopt}, Launch);
  return {predict(C, R, O, L, Launch), O};
}

// The same 2^28 values, Items a thread, at 256 threads.
double axpyTime(unsigned CC, unsigned Items, unsigned Regs = 16) {
  uint64_t Values = 1ull << 28;
  return run(axpy(Items), CC, 256, Regs, Values / (256 * Items)).P.TimeUs;
}

TEST(ModelTest, StreamingIsDramBoundNearTheBandwidth) {
  Modelled R = run(axpy(8), 90, 256, 24, (1ull << 28) / 2048);
  EXPECT_EQ(R.P.Bound, Phase::Dram);
  // 12 bytes a value over 3350 GB/s, give or take the model's latency.
  double Ideal = 12.0 * (1ull << 28) / 3350e9 * 1e6;
  EXPECT_GT(R.P.TimeUs, Ideal);
  EXPECT_LT(R.P.TimeUs, 1.3 * Ideal);
}

TEST(ModelTest, MoreBytesInFlightHideLatency) {
  // One value a thread leaves DRAM latency exposed; more values a thread
  // are faster, up to the bandwidth; past it, longer blocks drain longer
  // (measured on an H100: 2979 GB/s at 4 values, 2928 at 8).
  EXPECT_GT(axpyTime(90, 1), axpyTime(90, 4));
  EXPECT_LT(axpyTime(90, 4), axpyTime(90, 8));
  EXPECT_LT(axpyTime(90, 8), 1.05 * axpyTime(90, 4));
  // Lower occupancy (128 registers: 2 blocks of 8 warps) is slower.
  EXPECT_GT(axpyTime(90, 1, 128), axpyTime(90, 1, 16));
  Modelled Low = run(axpy(1), 90, 256, 128, 1 << 20);
  EXPECT_EQ(Low.P.Bound, Phase::Latency);
}

TEST(ModelTest, ManySmallBlocksAreBoundByDispatch) {
  // 32 threads a block, one value a thread: 2^19 blocks, which the GPU
  // starts at 0.835 a clock whatever they do (scripts/gpu/block_rate.cu);
  // twice the values a thread is half the blocks and twice as fast, as the
  // axpy sample measured on an H100 (634 against 1262 GB/s).
  uint64_t Values = 1ull << 24;
  double One = run(axpy(1), 90, 32, 16, Values / 32).P.TimeUs;
  double Two = run(axpy(2), 90, 32, 16, Values / 64).P.TimeUs;
  double Dispatch = (Values / 32) / 0.835 / (1.98 * 1e3);
  EXPECT_NEAR(One, Dispatch, 1e-6 * Dispatch);
  EXPECT_NEAR(One / Two, 2.0, 0.05);
}

TEST(ModelTest, LatencyIsPaidOnceWhenBlocksFollowEachOther) {
  // 8 blocks an SM of 256 threads with 2 values each keep 32 KiB of loads
  // in flight: after the first wave the blocks run out of step and the
  // grid streams at the bandwidth (measured: 3004 GB/s, the space's best),
  // where a wave that waited for its own loads would lose 18% to latency.
  uint64_t Values = 1ull << 28;
  double Ideal = 12.0 * Values / 3350e9 * 1e6;
  Modelled Many = run(axpy(2), 90, 256, 16, Values / 512);
  EXPECT_LT(Many.P.TimeUs, 1.05 * Ideal);
  // One wave alone pays the latency and the dispatch of its blocks.
  Modelled One = run(axpy(2), 90, 256, 16, std::nullopt);
  double IdealWave = 12.0 * 2 * 256 * One.P.GridBlocks / 3350e9 * 1e6;
  EXPECT_GT(One.P.TimeUs, 1.3 * IdealWave);
}

TEST(ModelTest, RoundsOfLoadsBehindKeptBranchesWaitInARow) {
  // maxpool at one output a thread: 9 loads in 3 rounds (PtxCounts::
  // loadRounds), 8 blocks of 256 threads an SM. A round has a third of the
  // thread's bytes in flight: each waits its latency as a loop's pass
  // does, so the same counts in 3 rounds take longer than in one, and the
  // time grows with the rounds (the guarded 2 x 2 windows of
  // scripts/gpu/model/pool_loads.cu: 56.4 us in 2 rounds, 49.4 in 1).
  KernelCounts C = axpy(3);
  uint64_t Grid = 2 * 132 * 8 * 20;
  double One = run(C, 90, 256, 16, Grid).P.TimeUs;
  C.LoadRounds = 3;
  Modelled Three = run(C, 90, 256, 16, Grid);
  EXPECT_GT(Three.P.TimeUs, 1.05 * One);
  C.LoadRounds = 9;
  EXPECT_GT(run(C, 90, 256, 16, Grid).P.TimeUs, Three.P.TimeUs);
  // A kernel without global loads has no rounds to wait for.
  KernelCounts NoLoads;
  NoLoads.Instructions = 40;
  double Plain = run(NoLoads, 90, 256, 16, Grid).P.TimeUs;
  NoLoads.LoadRounds = 3;
  EXPECT_DOUBLE_EQ(run(NoLoads, 90, 256, 16, Grid).P.TimeUs, Plain);
}

TEST(ModelTest, WarpsWithoutABarrierOverlapTheirOwnPhases) {
  // Two blocks of 1024 threads an SM: with a barrier a block's arithmetic
  // waits for all its loads, without one each warp goes on alone, so the
  // same counts take longer with the barrier.
  KernelCounts C = axpy(4);
  C.Instructions = 400;
  Modelled Free = run(C, 90, 1024, 32, 2 * 132 * 20);
  ASSERT_EQ(Free.O.BlocksPerSM, 2u);
  Modelled Synced = run(C, 90, 1024, 32, 2 * 132 * 20, 0, 1);
  EXPECT_GT(Synced.P.TimeUs, 1.02 * Free.P.TimeUs);
}

TEST(ModelTest, AGridStrideLoopWithoutABarrierLetsItsWarpsDrift) {
  // One block of 1,024 threads an SM whose kernel has a barrier: a loop of
  // 64 passes, each loading 16 bytes a thread and computing on them. A
  // grid-stride loop (its step reads the launch) with the barrier only
  // before and after it (histogram's, between clearing its bins and adding
  // them up) lets the warps make their passes each on its own and overlap
  // one another's loads and arithmetic, as without a barrier at all; with
  // the barrier in it the block waits as one unit every pass, and so it
  // does over a loop along a row between the barriers of its reductions
  // (softmax's: no grid stride) (docs/report.md, "Grid-stride loops, lanes
  // that share a range, overlapping windows").
  auto Time = [](bool Barrier, bool InTheLoop, bool GridStride) {
    KernelCounts C;
    C.HasLoop = true;
    TripCount T = countingTo(C.Values, constantNode(C.Values, 64));
    OpCounts Body;
    Body.GlobalLoads.add(16);
    Body.SharedStores.add(4);
    Body.Instructions = 200;
    Body.Barriers = InTheLoop;
    C += Body;
    Loop L{"$L__BB0_1", Body, T, std::nullopt};
    L.GridStride = GridStride;
    C.Loops.push_back(L);
    Modelled M = run(C, 90, 1024, 64, 132, 0, Barrier);
    EXPECT_EQ(M.O.BlocksPerSM, 1u);
    return M.P.TimeUs;
  };
  EXPECT_DOUBLE_EQ(Time(true, false, true), Time(false, false, true));
  EXPECT_GT(Time(true, true, true), 1.1 * Time(true, false, true));
  EXPECT_DOUBLE_EQ(Time(true, false, false), Time(true, true, true));
}

TEST(ModelTest, ABlockThatWaitsStoresAfterItsLoads) {
  // Two blocks of 1024 threads an SM, 8 bytes loaded and 8 stored a
  // thread: 16 KiB of loads in flight, latency-bound. Warps that go on
  // alone store while others load, so the stores cost nothing; a block
  // that waits at a barrier stores only once its loads are back, and its
  // stores' transfer adds to the latency (the stencil sample's blocks of
  // two rows a thread, docs/report.md).
  auto Time = [](bool Barrier, bool Stores) {
    KernelCounts C;
    C.GlobalLoads = {2, 8};
    C.GlobalStores = {Stores ? 2u : 0u, Stores ? 8u : 0u};
    C.Instructions = 16;
    return run(C, 90, 1024, 32, 2 * 132 * 50, 0, Barrier).P.TimeUs;
  };
  EXPECT_LT(Time(false, true), 1.05 * Time(false, false));
  EXPECT_GT(Time(true, true), 1.3 * Time(true, false));
}

TEST(ModelTest, BankConflictsCostSharedPasses) {
  // Each warp's lanes on one bank (a stride of 32 words) take 32 passes
  // where consecutive words take one.
  auto Cycles = [](const std::string &Index) {
    KernelCounts C = sharedRead(Index, 4);
    const ArchLimits &L = *archLimits(90);
    LaunchConfig Launch;
    Launch.Block = {256, 1, 1};
    Launch.Grid = Dim3{132, 1, 1};
    KernelResources R;
    R.Registers = 16;
    Occupancy O = computeOccupancy(L, {16, 32768, 0, std::nullopt}, Launch);
    return predict(C, R, O, L, Launch).L1SharedCycles;
  };
  EXPECT_DOUBLE_EQ(Cycles("\tshl.b32 %r3, %r1, 5;\n"),
                   32 * Cycles("\tmov.u32 %r3, %r1;\n"));
}

TEST(ModelTest, ASharedBroadcastTakesHalfAPass) {
  // scripts/gpu/l1_loads.cu on an H100: a warp's 4-, 8- and 16-byte shared
  // loads on one address take 0.51, 1.02 and 2.03 clocks, on consecutive
  // words 1.00, 2.00 and 4.01 (ArchLimits.h).
  auto Cycles = [](const std::string &Index, unsigned Bytes) {
    KernelCounts C = sharedRead(Index, Bytes);
    const ArchLimits &L = *archLimits(90);
    LaunchConfig Launch;
    Launch.Block = {256, 1, 1};
    Launch.Grid = Dim3{132, 1, 1};
    KernelResources R;
    R.Registers = 16;
    Occupancy O = computeOccupancy(L, {16, 32768, 0, std::nullopt}, Launch);
    return predict(C, R, O, L, Launch).SharedPasses;
  };
  for (unsigned Bytes : {4, 8, 16}) {
    double Consecutive = Cycles("\tmov.u32 %r3, %r1;\n", Bytes);
    EXPECT_DOUBLE_EQ(Consecutive, 8 * Bytes / 4);
    EXPECT_DOUBLE_EQ(Cycles("\tmov.u32 %r3, 7;\n", Bytes), Consecutive / 2);
  }
}

TEST(ModelTest, WhatNeighboursLoadedComesFromL2AndItsOwnRereadsFromL1) {
  // The same kernel and blocks: in a 2D grid a block's neighbour a row of
  // blocks before it loaded 8 of its 40 sectors, which L2 serves; in a 1D
  // grid no block loads what another did. Its own threads' repeated rows
  // (each row loaded by three rows of threads) come from the SM's L1 in
  // both: no DRAM or L2 transfer, only L1's bytes.
  auto Kernels = countPtx(ColumnStencilPtx);
  ASSERT_TRUE(bool(Kernels));
  const ArchLimits &L = *archLimits(90);
  auto Predict = [&](Dim3 Grid) {
    LaunchConfig Launch;
    Launch.Block = {32, 8, 1};
    Launch.Grid = Grid;
    KernelResources R;
    R.Registers = 16;
    Occupancy O = computeOccupancy(L, {16, 0, 0, std::nullopt}, Launch);
    return predict((*Kernels)[0], R, O, L, Launch);
  };
  Prediction TwoD = Predict({256, 1024, 1}), OneD = Predict({256 * 1024, 1, 1});
  // Per block, DRAM: 32 sectors and the stores (1024 + 1024 bytes)
  // against 40 (1280 + 1024), at 12.8 bytes a clock; the neighbour's 8
  // sectors (256 bytes) at L2's 64; the other 1792 of the 3072 bytes
  // loaded nowhere but L1.
  double Share = 3350 / 1.98 / 132;
  EXPECT_NEAR(TwoD.DramCycles / OneD.DramCycles,
              (2048 / Share + 256 / 64.0) / (2304 / Share), 1e-9);
  // L1 moves every byte loaded and stored in both.
  EXPECT_DOUBLE_EQ(TwoD.L1SharedCycles, OneD.L1SharedCycles);
}

TEST(ModelTest, ComputeBoundFollowsInstructions) {
  // A convolution-like thread: 289 FMAs per output, a few loads.
  auto Conv = [](unsigned Outputs, unsigned SharedLoadsPerOutput) {
    KernelCounts C;
    C.GlobalLoads = {4, 16};
    C.GlobalStores = {Outputs, 4ull * Outputs};
    C.SharedLoads = {SharedLoadsPerOutput * Outputs,
                     4ull * SharedLoadsPerOutput * Outputs};
    C.FpInstructions[unsigned(FpType::F32)] = 289 * Outputs;
    C.Flops[unsigned(FpType::F32)] = 578 * Outputs;
    C.Instructions = (289 + SharedLoadsPerOutput) * Outputs + 40;
    return C;
  };
  // 2^24 outputs: untiled (1 a thread, a shared load per FMA) against 4x4
  // tiles that reuse each loaded value.
  Modelled Untiled = run(Conv(1, 289), 90, 256, 32, (1 << 24) / 256, 4096);
  Modelled Tiled = run(Conv(16, 25), 90, 256, 64, (1 << 24) / 4096, 27648);
  EXPECT_NE(Untiled.P.Bound, Phase::Dram);
  EXPECT_NE(Tiled.P.Bound, Phase::Dram);
  EXPECT_GT(Untiled.P.TimeUs, 1.5 * Tiled.P.TimeUs);
}

TEST(ModelTest, Fp64FollowsTheFp64Lanes) {
  KernelCounts C;
  C.FpInstructions[unsigned(FpType::F64)] = 1000;
  C.Instructions = 1000;
  // sm_75 has 2 FP64 lanes an SM on 40 SMs, sm_80 32 on 108: the same
  // grid takes over 40 times longer (the A100 is slower per clock).
  Modelled T4 = run(C, 75, 256, 32, 1000);
  Modelled A100 = run(C, 80, 256, 32, 1000);
  EXPECT_EQ(T4.P.Bound, Phase::FloatingPoint);
  EXPECT_GT(T4.P.TimeUs, 30 * A100.P.TimeUs);
}

TEST(ModelTest, WavesAndTheAssumedGrid) {
  Modelled One = run(axpy(4), 90, 256, 16, std::nullopt);
  EXPECT_TRUE(One.P.GridAssumed);
  EXPECT_EQ(One.P.GridBlocks, 8u * 132);
  EXPECT_EQ(One.P.Waves, 1u);
  Modelled Three = run(axpy(4), 90, 256, 16, 8 * 132 * 2 + 1);
  EXPECT_EQ(Three.P.Waves, 3u);
  EXPECT_FALSE(Three.P.GridAssumed);
  // A last wave of one block costs far less than a full one.
  Modelled Two = run(axpy(4), 90, 256, 16, 8 * 132 * 2);
  EXPECT_GT(Three.P.TimeUs, Two.P.TimeUs);
  EXPECT_LT(Three.P.TimeUs - Two.P.TimeUs, One.P.TimeUs);
}

TEST(ModelTest, ALoopWithoutATripCountMakesALowerBound) {
  KernelCounts C = axpy(1);
  C.HasLoop = true;
  C.Loops.push_back({"$L__BB0_1", {}, std::nullopt, std::nullopt});
  Modelled Unknown = run(C, 80, 256, 16, 1000);
  EXPECT_TRUE(Unknown.P.LowerBound);
  ASSERT_EQ(Unknown.P.LoopTrips.size(), 1u);
  EXPECT_FALSE(Unknown.P.LoopTrips[0]);
  EXPECT_FALSE(run(axpy(1), 80, 256, 16, 1000).P.LowerBound);
  KernelCounts Called = axpy(1);
  Called.CalleeHasLoop = true;
  EXPECT_TRUE(run(Called, 80, 256, 16, 1000).P.LowerBound);
}

TEST(ModelTest, ALoopWithATripCountIsCountedPerPass) {
  // A body of one 4-byte load and one FMA, 100 passes: as a kernel that
  // holds 100 of each, and no lower bound.
  KernelCounts Looped = axpy(1);
  Looped.HasLoop = true;
  TripCount T = countingTo(Looped.Values, constantNode(Looped.Values, 100));
  OpCounts Body;
  Body.GlobalLoads.add(4);
  Body.Flops[unsigned(FpType::F32)] = 2;
  Body.FpInstructions[unsigned(FpType::F32)] = 1;
  Body.Instructions = 2;
  Looped += Body;
  Looped.Loops.push_back({"$L__BB0_1", Body, T, std::nullopt});
  Modelled L = run(Looped, 90, 256, 16, 132 * 8 * 4);
  EXPECT_FALSE(L.P.LowerBound);
  ASSERT_TRUE(L.P.LoopTrips[0]);
  EXPECT_DOUBLE_EQ(*L.P.LoopTrips[0], 100);
  // The same work as a kernel that holds 100 of each...
  KernelCounts Flat = axpy(1);
  for (int I = 0; I < 100; ++I)
    Flat += Body;
  Modelled F = run(Flat, 90, 256, 16, 132 * 8 * 4);
  EXPECT_DOUBLE_EQ(L.P.IssueCycles, F.P.IssueCycles);
  EXPECT_DOUBLE_EQ(L.P.FpCycles, F.P.FpCycles);
  EXPECT_DOUBLE_EQ(L.P.L1SharedCycles, F.P.L1SharedCycles);
  // ...but which waits for its loads once, where the loop waits once a
  // pass: 99 more DRAM latencies in a row.
  EXPECT_DOUBLE_EQ(L.P.LatencyCycles - F.P.LatencyCycles,
                   99 * archLimits(90)->Device.DramLatencyCycles);
  EXPECT_GE(L.P.TimeUs, F.P.TimeUs);
}

TEST(ModelTest, APassWaitsForItsLatencyAndTheBytesQueuedAheadOfIt) {
  // A loop of n passes (n the kernel's first argument, given with the
  // launch), each loading 4 bytes a thread, one full wave of 256-thread
  // blocks: 100 passes hold 100 idle latencies in a row and about as many
  // cycles of transfer; the wave takes their root-sum-square at least.
  KernelCounts Looped;
  Looped.HasLoop = true;
  ValueNode N{ValueOp::Param, 32, true};
  N.B = 0;
  TripCount T = countingTo(Looped.Values, Looped.Values.add(N));
  OpCounts Body;
  Body.GlobalLoads.add(4);
  Body.Instructions = 4;
  Looped += Body;
  Looped.Loops.push_back({"$L__BB0_1", Body, T, std::nullopt});
  const ArchLimits &L = *archLimits(90);
  LaunchConfig Launch;
  Launch.Block = {256, 1, 1};
  Launch.Args = {100};
  KernelResources R;
  R.Registers = 16;
  Occupancy O = computeOccupancy(L, {16, 0, 0, std::nullopt}, Launch);
  Launch.Grid = Dim3{O.BlocksPerSM * L.Device.SMs, 1, 1};
  Prediction P = predict(Looped, R, O, L, Launch);
  ASSERT_TRUE(P.LoopTrips[0]);
  EXPECT_DOUBLE_EQ(*P.LoopTrips[0], 100);
  double Rounds = 100 * L.Device.DramLatencyCycles;
  double Cycles = P.TimeUs * L.Device.ClockGHz * 1e3;
  EXPECT_GT(P.DramCycles, Rounds / 2);
  EXPECT_GE(Cycles, std::hypot(Rounds, P.DramCycles));
  // A tenth of the passes: about a tenth of the time.
  Launch.Args = {10};
  double Tenth = predict(Looped, R, O, L, Launch).TimeUs;
  EXPECT_LT(Tenth, P.TimeUs / 5);
}

TEST(ModelTest, DramPaysForRunsThatNothingBesideContinues) {
  // The same bytes moved by the same blocks of 16 x 16 threads: written as
  // a transpose does, in rows of 64 bytes on their own, they take DRAM a
  // quarter longer (DeviceParams::DramRunEndBytes) than as a copy, whose
  // rows run on.
  const ArchLimits &L = *archLimits(90);
  LaunchConfig Launch;
  Launch.Block = {16, 16, 1};
  Launch.Grid = Dim3{512, 512, 1};
  KernelResources R;
  R.Registers = 16;
  Occupancy O = computeOccupancy(L, {16, 0, 0, std::nullopt}, Launch);
  auto Moved = [&](bool Transposed) {
    auto Kernels = countPtx(tileMovePtx(Transposed));
    EXPECT_TRUE(bool(Kernels));
    return predict((*Kernels)[0], R, O, L, Launch);
  };
  Prediction T = Moved(true), C = Moved(false);
  // Reads as they were; writes 32 ends of 8 bytes over 32 sectors: 1.25.
  EXPECT_DOUBLE_EQ(T.DramCycles / C.DramCycles,
                   (1 + 1 + 2 * DeviceParams::DramRunEndBytes / 64) / 2);
  EXPECT_GT(T.TimeUs, C.TimeUs);
}

// A loop of 100 passes, each loading 4 bytes a thread and, with Stores,
// storing 4, in a full wave of 256-thread blocks (the first) or in three.
Prediction loadStoreLoop(bool Stores, unsigned Waves) {
  KernelCounts Looped;
  Looped.HasLoop = true;
  TripCount T = countingTo(Looped.Values, constantNode(Looped.Values, 100));
  OpCounts Body;
  Body.GlobalLoads.add(4);
  if (Stores)
    Body.GlobalStores.add(4);
  Body.Instructions = 6;
  Looped += Body;
  Looped.Loops.push_back({"$L__BB0_1", Body, T, std::nullopt});
  const ArchLimits &L = *archLimits(90);
  LaunchConfig Launch;
  Launch.Block = {256, 1, 1};
  KernelResources R;
  R.Registers = 16;
  Occupancy O = computeOccupancy(L, {16, 0, 0, std::nullopt}, Launch);
  Launch.Grid = Dim3{Waves * O.BlocksPerSM * L.Device.SMs, 1, 1};
  return predict(Looped, R, O, L, Launch);
}

TEST(ModelTest, PassesThatLoadThenStoreInStepWaitInTurn) {
  // One wave of blocks in step whose passes load then store: a latency
  // under load a pass, then the transfer, one after the other.
  const DeviceParams &D = archLimits(90)->Device;
  Prediction Step = loadStoreLoop(true, 1);
  double Cycles = Step.TimeUs * D.ClockGHz * 1e3;
  EXPECT_GE(Cycles, 100 * D.loadedLatencyCycles() + Step.DramCycles);
  // A loop that only loads overlaps the two (their root-sum-square).
  Prediction Loads = loadStoreLoop(false, 1);
  double LoadCycles = Loads.TimeUs * D.ClockGHz * 1e3;
  EXPECT_LT(LoadCycles, 100 * D.loadedLatencyCycles());
  EXPECT_GE(LoadCycles, std::hypot(100 * D.DramLatencyCycles, Loads.DramCycles));
  // Over three waves only the first is in step: per wave, the grid takes
  // less than the single wave.
  EXPECT_LT(loadStoreLoop(true, 3).TimeUs, 3 * Step.TimeUs);
}

// Blocks of 256 threads that load 16 bytes a thread at
// in[blockIdx.x * 256 + threadIdx.x] and then add thread t's sum to
// out[t] (the same 256 words in every block: a histogram's bins) or to
// out[blockIdx.x * 256 + t] (words of their own), over Blocks blocks.
Prediction binsAdded(bool Shared, unsigned Blocks) {
  std::string Word =
      Shared ? "\tmov.u32 \t%r6, %r1;\n" : "\tadd.s32 \t%r6, %r4, %r1;\n";
  const KernelCounts K = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.param.u64 	%rd7, [k_param_1];
	cvta.to.global.u64 	%rd8, %rd7;
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ctaid.x;
	shl.b32 	%r3, %r2, 8;
	add.s32 	%r4, %r3, %r1;
	mul.wide.u32 	%rd3, %r4, 16;
	add.s64 	%rd4, %rd2, %rd3;
	ld.global.v4.u32 	{%r10, %r11, %r12, %r13}, [%rd4];
	bar.sync 	0;
)" + Word + R"(	mul.wide.u32 	%rd5, %r6, 4;
	add.s64 	%rd6, %rd8, %rd5;
	red.global.add.u32 	[%rd6], %r10;
)");
  const ArchLimits &L = *archLimits(90);
  LaunchConfig Launch;
  Launch.Block = {256, 1, 1};
  Launch.Grid = Dim3{Blocks, 1, 1};
  KernelResources R;
  R.Registers = 32;
  R.Barriers = true;
  Occupancy O = computeOccupancy(L, {32, 0, 0, std::nullopt}, Launch);
  return predict(K, R, O, L, Launch);
}

TEST(ModelTest, AtomicsEveryBlockSendsToOneLineWaitInTurn) {
  const DeviceParams &D = archLimits(90)->Device;
  // One wave of 8 blocks an SM, in step: each block adds to the 256 words
  // of 8 lines, which L2 takes at the rate of 8 lines once the loads are
  // in (each word's single update a block is faster).
  const unsigned Wave = 8 * 132;
  Prediction Own = binsAdded(false, Wave), Bins = binsAdded(true, Wave);
  double PerBlock = 256 / DeviceParams::atomicUpdatesPerClock(8);
  ASSERT_GT(PerBlock, 1 / DeviceParams::AtomicAddressUpdatesPerClock);
  double Queue = Wave * PerBlock;
  EXPECT_NEAR((Bins.TimeUs - Own.TimeUs) * D.ClockGHz * 1e3, Queue,
              1e-6 * Queue);
  // Over 20 waves, out of step, the queue overlaps the transfers: it adds
  // less than a queue a wave.
  Prediction OwnLong = binsAdded(false, 20 * Wave),
             BinsLong = binsAdded(true, 20 * Wave);
  EXPECT_GE(BinsLong.TimeUs, OwnLong.TimeUs);
  EXPECT_LT((BinsLong.TimeUs - OwnLong.TimeUs) * D.ClockGHz * 1e3, 20 * Queue);
}

TEST(ModelTest, RereadsFindL1OnlyWhileTheSMsRowsFitIt) {
  // ReportKernels.h's two walks over a block's 8 KiB row. At 8 blocks an
  // SM (64 KiB of rows, capped by 255 registers a thread) the second walk
  // finds most of the row in L1: DRAM moves each row about once, as if
  // walked once. At 32 blocks (256 KiB, all of the SM's L1) about half of
  // it is gone: it comes from L2 or DRAM, and the second walk's passes
  // wait for it.
  auto Kernels = countPtx(TwoWalksPtx);
  ASSERT_TRUE(bool(Kernels));
  const ArchLimits &L = *archLimits(90);
  auto Predict = [&](unsigned Regs) {
    LaunchConfig Launch;
    Launch.Block = {32, 1, 1};
    Launch.Grid = Dim3{16384, 1, 1};
    KernelResources R;
    R.Registers = Regs;
    Occupancy O = computeOccupancy(L, {Regs, 0, 0, std::nullopt}, Launch);
    return std::pair(predict((*Kernels)[0], R, O, L, Launch), O.BlocksPerSM);
  };
  auto [Few, FewBlocks] = Predict(255);
  auto [Many, ManyBlocks] = Predict(16);
  ASSERT_EQ(FewBlocks, 8u);
  ASSERT_EQ(ManyBlocks, 32u);
  double Share = L.Device.DramGBps / L.Device.ClockGHz / L.Device.SMs;
  // Each row once, its 128-byte runs (a pass's) continued by no block
  // beside it: two ends each (DeviceParams::DramRunEndBytes).
  double Once = 8192 * (1 + 2 * DeviceParams::DramRunEndBytes / 128) / Share;
  EXPECT_NEAR(Few.DramCycles / FewBlocks, Once, 0.05 * Once);
  EXPECT_GT(Many.DramCycles / ManyBlocks, 1.15 * Once);
  // The second walk's 64 passes wait where L1 lost their sectors: few of
  // them at 8 blocks, about half at 32.
  double Latency = L.Device.DramLatencyCycles;
  EXPECT_LT(Few.LatencyCycles, 80 * Latency);
  EXPECT_GT(Many.LatencyCycles, 95 * Latency);
}

TEST(ModelTest, PhaseNamesAreTheJsonSpelling) {
  EXPECT_EQ(phaseName(Phase::L1Shared), "l1_shared");
  EXPECT_EQ(phaseName(Phase::FloatingPoint), "fp");
}

} // namespace
