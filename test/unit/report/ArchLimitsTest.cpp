//===- ArchLimitsTest.cpp - The per-architecture table is consistent ------===//
#include "report/ArchLimits.h"

#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

TEST(ArchLimitsTest, CoversTheArchitecturesWithReferenceDevices) {
  for (unsigned CC : {75u, 80u, 86u, 87u, 89u, 90u, 100u, 120u}) {
    const ArchLimits *L = archLimits(CC);
    ASSERT_NE(L, nullptr) << CC;
    EXPECT_EQ(L->CC, CC);
  }
  // nvcc 13 targets these too; no reference device is recorded for them.
  EXPECT_EQ(archLimits(88), nullptr);
  EXPECT_EQ(archLimits(103), nullptr);
}

TEST(ArchLimitsTest, RowsAreAscendingAndConsistent) {
  unsigned Previous = 0;
  for (const ArchLimits &L : allArchLimits()) {
    SCOPED_TRACE(L.CC);
    EXPECT_GT(L.CC, Previous);
    Previous = L.CC;
    // The largest carve-out is the SM's shared memory.
    ASSERT_FALSE(L.CarveoutsKiB.empty());
    EXPECT_EQ(uint64_t(L.CarveoutsKiB.back()) * 1024, L.SharedPerSM);
    for (size_t I = 1; I < L.CarveoutsKiB.size(); ++I)
      EXPECT_LT(L.CarveoutsKiB[I - 1], L.CarveoutsKiB[I]);
    // One opted-in block and its reserve fit in the SM.
    EXPECT_LE(L.SharedPerBlockOptIn + L.ReservedSharedPerBlock, L.SharedPerSM);
    EXPECT_LE(L.SharedPerBlock, L.SharedPerBlockOptIn);
    // The unified L1 holds the largest carve-out and some cache besides.
    EXPECT_GT(L.L1SharedPerSM, L.SharedPerSM);
    EXPECT_GE(L.MaxWarpsPerSM * 32, L.MaxThreadsPerBlock);
    EXPECT_EQ(L.RegistersPerSM % (L.SubPartitions * L.RegisterAllocationUnit),
              0u);
    // Ampere and later reserve 1 KiB a block and allocate in 128 bytes.
    EXPECT_EQ(L.ReservedSharedPerBlock, L.CC >= 80 ? 1024u : 0u);
    EXPECT_EQ(L.SharedAllocationUnit, L.CC >= 80 ? 128u : 256u);
    const DeviceParams &D = L.Device;
    EXPECT_FALSE(D.Name.empty());
    EXPECT_GT(D.SMs, 0u);
    EXPECT_GT(D.ClockGHz, 0.5);
    EXPECT_GT(D.DramGBps, 100);
    EXPECT_GE(D.Fp32Lanes, D.Fp64Lanes);
    EXPECT_GT(D.DramLatencyCycles, 100u);
  }
}

TEST(ArchLimitsTest, HopperValues) {
  const ArchLimits &L = *archLimits(90);
  EXPECT_EQ(L.MaxWarpsPerSM, 64u);
  EXPECT_EQ(L.MaxBlocksPerSM, 32u);
  EXPECT_EQ(L.SharedPerSM, 228u * 1024);
  EXPECT_EQ(L.SharedPerBlockOptIn, 227u * 1024);
  EXPECT_EQ(L.SharedPerBlock, 48u * 1024);
  EXPECT_EQ(L.Device.SMs, 132u);
  EXPECT_EQ(L.L1SharedPerSM, 256u * 1024);
}

} // namespace
