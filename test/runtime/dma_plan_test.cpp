// Host-side tests of metacu/dma/plan.h: the checks of a copy description and
// its lowering per architecture, which dma.cuh's generation-time plan and the
// copier's host diagnose() share.
#include <metacu/dma/plan.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace dma = metacu::dma;

namespace {

dma::spec sequential(int bytes, int align, int threads) {
  dma::spec s;
  s.bytes = bytes;
  s.align = align;
  s.threads = threads;
  return s;
}

TEST(DmaPlan, MechanismFollowsTheArchitecture) {
  const dma::spec s = sequential(16384, 16, 256);
  EXPECT_EQ(dma::lower(s, 75).mech, dma::mechanism::registers);
  EXPECT_EQ(dma::lower(s, 80).mech, dma::mechanism::cp_async);
  EXPECT_EQ(dma::lower(s, 86).mech, dma::mechanism::cp_async);
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::bulk);
  EXPECT_EQ(dma::lower(s, 100).mech, dma::mechanism::bulk);
}

TEST(DmaPlan, StraightLineWhenThreadsDivideTheAccesses) {
  const dma::lowering l = dma::lower(sequential(16384, 16, 256), 80);
  EXPECT_EQ(l.width, 16);
  EXPECT_EQ(l.insts, 4);
  EXPECT_FALSE(l.guarded);
  const dma::lowering r = dma::lower(sequential(16384 + 16, 16, 256), 80);
  EXPECT_EQ(r.insts, 5);
  EXPECT_TRUE(r.guarded);
}

TEST(DmaPlan, AlignmentPicksTheWidth) {
  EXPECT_EQ(dma::widest(sequential(4096, 8, 128)), 8);
  EXPECT_EQ(dma::widest(sequential(4100, 16, 128)),
            4); // size not a multiple of 8
  EXPECT_EQ(dma::widest(sequential(4094, 16, 128)), 2);
  // Under 16 bytes sm_90 falls back to cp.async; under 4 to registers.
  EXPECT_EQ(dma::lower(sequential(4096, 8, 128), 90).mech,
            dma::mechanism::cp_async);
  EXPECT_EQ(dma::lower(sequential(4094, 16, 128), 90).mech,
            dma::mechanism::registers);
}

TEST(DmaPlan, StridedPitchesCountForAlignment) {
  dma::spec s;
  s.kind = dma::pattern::strided;
  s.bytes = 512;
  s.rows = 32;
  s.src_pitch = 4104; // 8-byte multiple only
  s.align = 16;
  s.threads = 128;
  EXPECT_EQ(dma::widest(s), 8);
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::cp_async);
  s.src_pitch = 4096;
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::bulk);
  EXPECT_EQ(dma::lower(s, 90).width, 512); // one bulk copy per row
  s.bytes = 64;                            // short rows: cp.async
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::cp_async);
}

TEST(DmaPlan, RegisterBudgetBoundsBytesInFlight) {
  dma::spec s = sequential(32768, 16, 128); // 16 accesses per thread
  s.bytes_in_flight = 64;
  const dma::lowering l = dma::lower(s, 75);
  EXPECT_EQ(l.insts, 16);
  EXPECT_EQ(l.in_flight, 64);
  EXPECT_EQ(l.regs, 16);
}

TEST(DmaPlan, ForcedMechanismWhereItExists) {
  dma::spec s = sequential(8192, 16, 128);
  s.force = dma::mechanism::registers;
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::registers);
  s.force = dma::mechanism::bulk;
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::bulk);
  EXPECT_EQ(dma::lower(s, 80).mech,
            dma::mechanism::cp_async); // no bulk before sm_90
  EXPECT_EQ(dma::lower(s, 75).mech, dma::mechanism::registers);
}

TEST(DmaPlan, InvalidDescriptions) {
  EXPECT_STREQ(dma::invalid(sequential(4096, 16, 128)), "");
  EXPECT_NE(std::string(dma::invalid(sequential(0, 16, 128))), "");
  EXPECT_NE(std::string(dma::invalid(sequential(4096, 12, 128))), "");
  EXPECT_NE(std::string(dma::invalid(sequential(4096, 16, 2048))), "");
  dma::spec big = sequential(64 * 1024, 16, 128);
  EXPECT_NE(std::string(dma::invalid(big)).find("shared memory"),
            std::string::npos);
  dma::spec ws = sequential(4096, 16, 48);
  ws.block_threads = 256;
  EXPECT_NE(std::string(dma::invalid(ws)).find("whole producer warps"),
            std::string::npos);
  ws.threads = 64;
  EXPECT_STREQ(dma::invalid(ws), "");
}

TEST(DmaPlan, RefusedForcedMechanism) {
  dma::spec s = sequential(4096, 8, 128);
  s.force = dma::mechanism::bulk;
  EXPECT_NE(std::string(dma::refused(s, 2)), "");
  EXPECT_STREQ(dma::refused(s, 1), ""); // sm_80 has no bulk: the choice runs
  s.force = dma::mechanism::cp_async;
  s.align = 2;
  s.bytes = 4094;
  EXPECT_NE(std::string(dma::refused(s, 1)), "");
  EXPECT_STREQ(dma::refused(s, 0), "");
}

TEST(DmaPlan, DescribeNamesMechanismAndReason) {
  char buf[1024] = {};
  FILE *f = fmemopen(buf, sizeof buf, "w");
  dma::describe(f, sequential(16384, 16, 256), 90);
  std::fclose(f);
  const std::string text = buf;
  EXPECT_NE(text.find("sm_90: cp.async.bulk + mbarrier"), std::string::npos)
      << text;
  EXPECT_NE(text.find("4096-byte copies"), std::string::npos) << text;
}

} // namespace
