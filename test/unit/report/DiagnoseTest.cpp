//===- DiagnoseTest.cpp - Report rows in words ----------------------------===//
#include "report/Diagnose.h"

#include "ReportKernels.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::report;

namespace {

// A row as buildReports makes it, from the figures given.
KernelReport row(unsigned CC, unsigned Threads, unsigned Regs,
                 uint64_t StaticSmem = 0, uint64_t Dynamic = 0) {
  KernelReport R;
  R.Name = "k";
  R.Target = Arch{CC, 0};
  R.Resources.Registers = Regs;
  R.Resources.StaticSharedBytes = StaticSmem;
  R.Counts.Instructions = 20;
  R.Limits = archLimits(CC);
  LaunchConfig L;
  L.Block = {Threads, 1, 1};
  L.DynamicSharedBytes = Dynamic;
  R.Launch = L;
  if (R.Limits) {
    R.Occ = computeOccupancy(*R.Limits, {Regs, StaticSmem, 0, std::nullopt}, L);
    if (R.Occ->BlocksPerSM)
      R.Model = predict(R.Counts, R.Resources, *R.Occ, *R.Limits, L);
  }
  return R;
}

// R with its model predicted again from its counts, as buildReports does.
KernelReport repredicted(KernelReport R) {
  R.Model = predict(R.Counts, R.Resources, *R.Occ, *R.Limits, *R.Launch);
  return R;
}

std::string all(const KernelReport &R) {
  std::string S;
  for (const std::string &D : diagnose(R))
    S += D + "\n";
  return S;
}

TEST(DiagnoseTest, Spills) {
  KernelReport R = row(75, 256, 255);
  R.Resources.SpillStoreBytes = 48;
  R.Resources.SpillLoadBytes = 40;
  EXPECT_NE(all(R).find("spills 48 bytes (40 reloaded) on sm_75 at 256 "
                        "threads: lower the values per thread or cap "
                        "registers"),
            std::string::npos)
      << all(R);
}

TEST(DiagnoseTest, StackWithoutSpills) {
  KernelReport R = row(80, 128, 32);
  R.Resources.StackBytes = 64;
  EXPECT_NE(all(R).find("64-byte stack frame"), std::string::npos);
  EXPECT_EQ(all(R).find("spills"), std::string::npos);
}

// A called function's spills are ptxas's line for it, not the kernel's.
TEST(DiagnoseTest, CalledFunctionsAndTheirSpillsAreNamed) {
  KernelReport R = row(80, 128, 32);
  R.Counts.Called = {"_Z5depthPKjj"};
  R.Counts.Uncounted = {{"_Z5depthPKjj", "recursive"},
                        {"%rd5", "a call through a pointer"}};
  KernelResources F;
  F.Mangled = "_Z5depthPKjj";
  F.StackBytes = F.SpillStoreBytes = F.SpillLoadBytes = 32;
  R.CalleeFrames = {F};
  std::string S = all(R);
  EXPECT_NE(S.find("calls depth(unsigned int const*, unsigned int) (not "
                   "inlined): counted in, once per call site"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("calls depth(unsigned int const*, unsigned int), which "
                   "spills 32 bytes (32 reloaded) on sm_80 at 128 threads"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("calls depth(unsigned int const*, unsigned int) "
                   "recursively: its body is counted once"),
            std::string::npos)
      << S;
  EXPECT_NE(S.find("calls %rd5 (a call through a pointer): its work is not "
                   "counted"),
            std::string::npos)
      << S;
}

TEST(DiagnoseTest, CannotLaunchForRegisters) {
  std::string D = all(row(90, 1024, 65));
  EXPECT_NE(D.find("cannot launch: 1024 threads x 65 registers exceeds the "
                   "register file (65536) on sm_90: at most 64 registers "
                   "per thread fit"),
            std::string::npos)
      << D;
}

TEST(DiagnoseTest, CannotLaunchForSharedMemoryWithoutOptIn) {
  std::string D = all(row(90, 256, 32, 16, 48 * 1024));
  EXPECT_NE(D.find("cannot launch: 50304 bytes of shared memory per block "
                   "(static 16 bytes, dynamic 48 KiB, reserved 1 KiB) "
                   "exceeds the limit of 48 KiB without opt-in"),
            std::string::npos)
      << D;
}

TEST(DiagnoseTest, CannotLaunchForBlockSizeAndLaunchBounds) {
  EXPECT_NE(all(row(80, 2048, 16)).find("2048 threads per block, at most 1024"),
            std::string::npos);
  KernelReport R = row(80, 256, 16);
  R.Counts.MaxThreadsPerBlock = 128;
  R.Occ = computeOccupancy(*R.Limits, {16, 0, 0, 128u}, *R.Launch);
  EXPECT_NE(all(R).find("256 threads exceed the kernel's __launch_bounds__ "
                        "(128)"),
            std::string::npos);
}

TEST(DiagnoseTest, OccupancyLimitedBySharedMemory) {
  std::string D = all(row(90, 256, 32, 48 * 1024));
  EXPECT_NE(D.find("occupancy 50% on sm_90 at 256 threads is limited by "
                   "shared memory (49 KiB per block of the SM's 228 KiB): "
                   "46592 bytes per block, reserve included, would fit 5"),
            std::string::npos)
      << D;
}

TEST(DiagnoseTest, OccupancyLimitedByRegistersSaysWhatWouldFitMore) {
  std::string D = all(row(90, 256, 64));
  EXPECT_NE(D.find("occupancy 50% on sm_90 at 256 threads is limited by "
                   "registers (64 per thread, 16384 per block of the SM's "
                   "65536): 48 registers per thread would fit 5 blocks "
                   "(__launch_bounds__(256, 5))"),
            std::string::npos)
      << D;
}

TEST(DiagnoseTest, FullOccupancyIsNotDiagnosed) {
  EXPECT_EQ(all(row(90, 256, 32)).find("occupancy"), std::string::npos);
}

TEST(DiagnoseTest, UnknownArchitecture) {
  EXPECT_NE(all(row(103, 256, 32)).find("no limits table for sm_103"),
            std::string::npos);
}

TEST(DiagnoseTest, LatencyBound) {
  KernelReport R = row(90, 256, 128);
  R.Counts.GlobalLoads = {2, 8};
  R.Counts.GlobalStores = {1, 4};
  R.Model = predict(R.Counts, R.Resources, *R.Occ, *R.Limits, *R.Launch);
  ASSERT_EQ(R.Model->Bound, Phase::Latency);
  EXPECT_NE(all(R).find("latency-bound on sm_90 at 256 threads: 4096 bytes "
                        "of loads in flight per SM"),
            std::string::npos)
      << all(R);
}

TEST(DiagnoseTest, BankConflicts) {
  // Each warp's 32 lanes 32 words apart: one bank, 32 passes a warp where
  // 1 would do, in 8 warps; a stride of one word has none.
  auto Strided = [](const std::string &Index) {
    KernelReport R = row(90, 256, 16, 32768);
    R.Counts = sharedRead(Index, 4);
    R.Model = predict(R.Counts, R.Resources, *R.Occ, *R.Limits, *R.Launch);
    return all(R);
  };
  const std::string Apart = "\tshl.b32 %r3, %r1, 5;\n";
  EXPECT_NE(Strided(Apart).find("shared-memory bank conflicts on sm_90 at 256 "
                              "threads: a block's shared loads and stores "
                              "take 256 passes over the banks where 8 would "
                              "do (32.0x)"),
            std::string::npos)
      << Strided(Apart);
  EXPECT_EQ(Strided("\tmov.u32 %r3, %r1;\n").find("bank conflicts"),
            std::string::npos);
}

TEST(DiagnoseTest, LoopsWithoutATripCountAreNamed) {
  KernelReport R = row(80, 128, 32);
  R.Counts.HasLoop = true;
  R.Counts.Loops.push_back({"$L__BB0_2", {}, std::nullopt, std::nullopt});
  EXPECT_NE(all(repredicted(R))
                .find("has a loop whose trip count the PTX does not give "
                      "($L__BB0_2): counted once, the predicted time a "
                      "lower bound"),
            std::string::npos);
}

TEST(DiagnoseTest, LanesThatShareAnUnknownRangeAreNamed) {
  KernelReport R = row(80, 128, 32);
  R.Counts.HasLoop = true;
  Loop Shared{"$L__BB0_4", {}, std::nullopt, std::nullopt};
  Shared.Lanes = 32;
  R.Counts.Loops.push_back(Shared);
  std::string Text = all(repredicted(R));
  EXPECT_NE(Text.find("has a loop whose trip count the PTX does not give "
                      "($L__BB0_4)"),
            std::string::npos);
  EXPECT_NE(Text.find("lanes walk the range of a loop together "
                      "($L__BB0_4: 32 lanes)"),
            std::string::npos);
}

TEST(DiagnoseTest, ATripCountFromMadeUpParametersIsNamed) {
  KernelReport R = row(80, 128, 32);
  R.Counts.HasLoop = true;
  ThreadValues &V = R.Counts.Values;
  unsigned N = V.add({ValueOp::Param, 32, true, false, 1});
  unsigned Limit = V.add({ValueOp::Convert, 32, true, true, N});
  R.Counts.Loops.push_back(
      {"$L__BB0_3", {}, countingTo(V, Limit), std::nullopt});
  std::string D = all(repredicted(R));
  EXPECT_NE(D.find("the trip count of a loop ($L__BB0_3) reads the kernel's "
                   "parameters"),
            std::string::npos)
      << D;
  EXPECT_EQ(D.find("does not give"), std::string::npos);
  // A constant limit is no made-up value.
  R.Counts.Loops.back().Trip->Limit = constantNode(V, 64);
  EXPECT_EQ(all(repredicted(R)).find("parameters"), std::string::npos);
}

TEST(DiagnoseTest, AtomicsWhoseAddressesAreNotKnownAreNamed) {
  // A histogram in global memory: the bin comes from a loaded byte. The
  // atomic on the parameter's first word is placed.
  KernelReport R = row(90, 256, 32);
  R.Counts = entryWith(R"(
	ld.param.u64 	%rd1, [k_param_0];
	cvta.to.global.u64 	%rd2, %rd1;
	ld.global.u8 	%r1, [%rd2];
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd2, %rd3;
	red.global.add.u32 	[%rd4], 1;
	red.global.add.u32 	[%rd2], 1;
)");
  EXPECT_NE(all(R).find("has 1 global atomic whose address the model cannot "
                        "tell (read from memory, computed from loaded data, "
                        "or in a called function): charged as a store"),
            std::string::npos)
      << all(R);
  R.Counts = entryWith("\tld.param.u64 \t%rd1, [k_param_0];\n"
                       "\tred.global.add.u32 \t[%rd1], 1;\n");
  EXPECT_EQ(all(R).find("global atomic"), std::string::npos) << all(R);
}

TEST(DiagnoseTest, ALoopInACalledFunction) {
  KernelReport R = row(80, 128, 32);
  R.Counts.HasLoop = R.Counts.CalleeHasLoop = true;
  EXPECT_NE(all(R).find("calls a function with a loop"), std::string::npos);
}

} // namespace
