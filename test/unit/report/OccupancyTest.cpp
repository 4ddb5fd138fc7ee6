//===- OccupancyTest.cpp - Blocks per SM by the CUDA occupancy rules ------===//
//
// Worked cases, each computed by hand from the documented limits (the
// figures in the comments), covering every limiter and every way a launch
// fails.
//
//===----------------------------------------------------------------------===//
#include "report/Occupancy.h"

#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

LaunchConfig launch(unsigned Threads, uint64_t Dynamic = 0) {
  LaunchConfig L;
  L.Block = {Threads, 1, 1};
  L.DynamicSharedBytes = Dynamic;
  return L;
}

Occupancy occupancy(unsigned CC, unsigned Threads, unsigned Regs,
                    uint64_t StaticSmem = 0, uint64_t Dynamic = 0) {
  KernelFootprint K;
  K.Registers = Regs;
  K.StaticSharedBytes = StaticSmem;
  return computeOccupancy(*archLimits(CC), K, launch(Threads, Dynamic));
}

TEST(OccupancyTest, Sm90At256ThreadsAnd32RegistersHoldsEightBlocks) {
  // 32 x 32 = 1024 registers a warp: 16 warps a sub-partition, 64 an SM,
  // 8 blocks of 8 warps; 64 warps / 8 = 8 too. The tie goes to warps.
  Occupancy O = occupancy(90, 256, 32);
  EXPECT_EQ(O.BlocksPerSM, 8u);
  EXPECT_EQ(O.ByRegisters, 8u);
  EXPECT_EQ(O.ByWarps, 8u);
  EXPECT_EQ(O.Limit, Limiter::Warps);
  EXPECT_DOUBLE_EQ(O.Fraction, 1.0);
  EXPECT_EQ(O.RegistersPerBlock, 8192u);
}

TEST(OccupancyTest, Sm90At64RegistersIsHalfFullByRegisters) {
  // 2048 registers a warp: 8 warps a sub-partition, 32 an SM, 4 blocks.
  Occupancy O = occupancy(90, 256, 64);
  EXPECT_EQ(O.BlocksPerSM, 4u);
  EXPECT_EQ(O.Limit, Limiter::Registers);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.5);
}

TEST(OccupancyTest, Sm90At255RegistersRoundsToTheAllocationUnit) {
  // 255 x 32 = 8160, rounded to 8192: 2 warps a sub-partition, 8 an SM,
  // one block of 8 warps, which is exactly the register file.
  Occupancy O = occupancy(90, 256, 255);
  EXPECT_EQ(O.BlocksPerSM, 1u);
  EXPECT_EQ(O.Limit, Limiter::Registers);
  EXPECT_EQ(O.RegistersPerBlock, 65536u);
  EXPECT_DOUBLE_EQ(O.Fraction, 8.0 / 64);
}

TEST(OccupancyTest, OddRegisterCountsRoundUpPerWarp) {
  // 40 x 32 = 1280 is a multiple of 256, 41 x 32 = 1312 rounds to 1536.
  EXPECT_EQ(occupancy(80, 128, 40).BlocksPerSM, 12u); // 12 warps/SP
  EXPECT_EQ(occupancy(80, 128, 41).BlocksPerSM, 10u); // 10 warps/SP
}

TEST(OccupancyTest, OneThousandTwentyFourThreadsAt65RegistersCannotLaunch) {
  // 65 x 32 = 2080, rounded to 2304; 32 warps need 73728 > 65536.
  Occupancy O = occupancy(90, 1024, 65);
  EXPECT_EQ(O.BlocksPerSM, 0u);
  EXPECT_EQ(O.Failure, LaunchFailure::RegisterFile);
  EXPECT_EQ(O.Limit, Limiter::CannotLaunch);
  // At 64 registers the block fills the register file exactly.
  Occupancy Fits = occupancy(90, 1024, 64);
  EXPECT_EQ(Fits.BlocksPerSM, 1u);
  EXPECT_EQ(Fits.Limit, Limiter::Registers);
}

TEST(OccupancyTest, RegisterCheckRoundsWarpsToSubPartitions) {
  // 9 warps at 169 registers: 5408 rounded to 5632 a warp, 50688 allocated,
  // but the hardware's check counts 12 warps: 67584 > 65536. At 168
  // registers (5376 a warp) the 12 warps need 64512 and it launches.
  EXPECT_EQ(occupancy(90, 288, 169).Failure, LaunchFailure::RegisterFile);
  EXPECT_EQ(occupancy(90, 288, 168).BlocksPerSM, 1u);
}

TEST(OccupancyTest, FortyEightKiBOfStaticSharedMemory) {
  // 48 KiB + the 1 KiB reserve = 50176 bytes, exactly the default limit;
  // 228 KiB / 50176 = 4 blocks.
  Occupancy O = occupancy(90, 256, 32, 48 * 1024);
  EXPECT_EQ(O.BlocksPerSM, 4u);
  EXPECT_EQ(O.Limit, Limiter::SharedMemory);
  EXPECT_EQ(O.SharedPerBlock, 50176u);
  EXPECT_EQ(O.SharedPerSM, 228u * 1024);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.5);
}

TEST(OccupancyTest, DynamicSharedMemoryOverTheDefaultNeedsOptIn) {
  // 16 + 48 KiB + 1 KiB = 50192, rounded to 50304 > 50176.
  Occupancy O = occupancy(90, 256, 32, 16, 48 * 1024);
  EXPECT_EQ(O.Failure, LaunchFailure::SharedPerBlock);
  EXPECT_EQ(O.SharedLimitPerBlock, 50176u);

  KernelFootprint K{32, 16, 0, std::nullopt};
  LaunchConfig L = launch(256, 48 * 1024);
  L.SharedOptIn = true;
  Occupancy In = computeOccupancy(*archLimits(90), K, L);
  EXPECT_EQ(In.SharedLimitPerBlock, 228u * 1024);
  EXPECT_EQ(In.BlocksPerSM, 4u); // 233472 / 50304
}

TEST(OccupancyTest, OptInStopsAtTheOptInLimit) {
  KernelFootprint K{32, 0, 0, std::nullopt};
  LaunchConfig L = launch(256, 227 * 1024);
  L.SharedOptIn = true;
  EXPECT_EQ(computeOccupancy(*archLimits(90), K, L).BlocksPerSM, 1u);
  L.DynamicSharedBytes += 1;
  EXPECT_EQ(computeOccupancy(*archLimits(90), K, L).Failure,
            LaunchFailure::SharedPerBlock);
}

TEST(OccupancyTest, TuringHasNoReserveAnd256ByteUnits) {
  // 20 KiB a block of the 64 KiB carve-out: 3 blocks of 8 warps, 24 of 32.
  Occupancy O = occupancy(75, 256, 32, 20 * 1024);
  EXPECT_EQ(O.BlocksPerSM, 3u);
  EXPECT_EQ(O.Limit, Limiter::SharedMemory);
  EXPECT_DOUBLE_EQ(O.Fraction, 0.75);
  EXPECT_EQ(occupancy(75, 256, 32, 1).SharedPerBlock, 256u);
  EXPECT_EQ(occupancy(80, 256, 32, 1).SharedPerBlock, 1152u);
}

TEST(OccupancyTest, WarpAndBlockLimits) {
  // sm_75: 32 warps, 16 blocks. 256 threads: 4 blocks by warps.
  Occupancy W = occupancy(75, 256, 32);
  EXPECT_EQ(W.BlocksPerSM, 4u);
  EXPECT_EQ(W.Limit, Limiter::Warps);
  // One-warp blocks stop at 16 blocks: half the warps.
  Occupancy B = occupancy(75, 32, 16);
  EXPECT_EQ(B.BlocksPerSM, 16u);
  EXPECT_EQ(B.Limit, Limiter::Blocks);
  EXPECT_DOUBLE_EQ(B.Fraction, 0.5);
  // sm_86: 48 warps. 128 threads: 12 blocks.
  EXPECT_EQ(occupancy(86, 128, 32).BlocksPerSM, 12u);
  // A partial warp takes a whole warp slot: 48 threads are 2 warps.
  EXPECT_EQ(occupancy(90, 48, 16).WarpsPerBlock, 2u);
}

TEST(OccupancyTest, CarveoutPreferenceRoundsUpAndGivesWayToOneBlock) {
  KernelFootprint K{32, 8 * 1024, 0, std::nullopt};
  LaunchConfig L = launch(256);
  // 25% of 228 KiB is 57 KiB, rounded up to the 64 KiB carve-out: 7 blocks
  // of 9 KiB.
  L.CarveoutPercent = 25;
  Occupancy O = computeOccupancy(*archLimits(90), K, L);
  EXPECT_EQ(O.SharedPerSM, 64u * 1024);
  EXPECT_EQ(O.BlocksPerSM, 7u);
  // 0% holds no block, so the smallest carve-out that holds one, 16 KiB.
  L.CarveoutPercent = 0;
  O = computeOccupancy(*archLimits(90), K, L);
  EXPECT_EQ(O.SharedPerSM, 16u * 1024);
  EXPECT_EQ(O.BlocksPerSM, 1u);
}

TEST(OccupancyTest, LaunchBoundsAndBlockSize) {
  KernelFootprint K{32, 0, 0, 128u};
  EXPECT_EQ(computeOccupancy(*archLimits(90), K, launch(256)).Failure,
            LaunchFailure::LaunchBounds);
  EXPECT_EQ(computeOccupancy(*archLimits(90), K, launch(128)).BlocksPerSM, 16u);
  EXPECT_EQ(occupancy(90, 2048, 16).Failure, LaunchFailure::BlockSize);
}

TEST(OccupancyTest, BarriersLimitFromHopperOn) {
  // Two barriers per block slot on sm_90: 5 barriers a block allow 12.
  KernelFootprint K{16, 0, 5, std::nullopt};
  Occupancy O = computeOccupancy(*archLimits(90), K, launch(32));
  EXPECT_EQ(O.BlocksPerSM, 12u);
  EXPECT_EQ(O.Limit, Limiter::Barriers);
  // sm_80 does not count them: 32 one-warp blocks.
  EXPECT_EQ(computeOccupancy(*archLimits(80), K, launch(32)).BlocksPerSM, 32u);
}

TEST(OccupancyTest, ParsesAndPrintsExtents) {
  auto D = Dim3::parse("64x8", MaxBlock);
  ASSERT_TRUE(bool(D));
  EXPECT_EQ(D->count(), 512u);
  EXPECT_EQ(D->str(), "64x8");
  EXPECT_EQ(Dim3::parse("256", MaxBlock)->str(), "256");
  EXPECT_EQ(Dim3::parse("8,8,4", MaxBlock)->str(), "8x8x4");
  for (const char *Bad : {"", "0", "64x", "1x2x3x4", "abc"}) {
    auto E = Dim3::parse(Bad, MaxBlock);
    EXPECT_FALSE(bool(E)) << Bad;
    llvm::consumeError(E.takeError());
  }
}

// Extents past CUDA's are refused: their product overflowed, and
// 135984x74342x1824726041 was taken for 32 threads.
TEST(OccupancyTest, ExtentsAreBoundedByCudas) {
  for (const char *Big : {"135984x74342x1824726041", "2048", "1x1x65"}) {
    auto E = Dim3::parse(Big, MaxBlock);
    ASSERT_FALSE(bool(E)) << Big;
    EXPECT_NE(llvm::toString(E.takeError()).find("at most 1024x1024x64"),
              std::string::npos);
  }
  // 1024 threads in all is the model's to check, not the parser's.
  EXPECT_TRUE(bool(Dim3::parse("1024x1024", MaxBlock)));
  auto G = Dim3::parse("2147483647x65535x65535", MaxGrid);
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(G->count(), 2147483647ull * 65535 * 65535);
  auto E = Dim3::parse("2147483648", MaxGrid);
  EXPECT_FALSE(bool(E));
  llvm::consumeError(E.takeError());
}

TEST(OccupancyTest, LimiterNamesAreTheJsonSpelling) {
  EXPECT_EQ(limiterName(Limiter::SharedMemory), "shared_memory");
  EXPECT_EQ(limiterName(Limiter::CannotLaunch), "cannot_launch");
}

} // namespace
