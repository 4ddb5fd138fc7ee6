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

dma::spec window(int bytes, int rows, int dst_pitch) {
  dma::spec s;
  s.kind = dma::pattern::strided;
  s.bytes = bytes;
  s.rows = rows;
  s.dst_pitch = dst_pitch;
  s.align = 16;
  s.threads = 256;
  return s;
}

TEST(DmaPlan, TensorCopyForPackedWindowsOnSm90) {
  const dma::spec s = window(576, 64, 0);
  EXPECT_TRUE(dma::lower(s, 90).tensor);
  EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::bulk); // start() has no map
  EXPECT_FALSE(dma::lower(s, 80).tensor);
  EXPECT_FALSE(dma::lower(s, 75).tensor);
  // Rows padded in shared memory, a box over 256 elements or rows, or rows
  // only 4-byte aligned: no tensor copy, and the reason.
  EXPECT_FALSE(dma::lower(window(576, 64, 592), 90).tensor);
  EXPECT_FALSE(dma::lower(window(1040, 8, 0), 90).tensor);
  EXPECT_FALSE(dma::lower(window(576, 257, 0), 90).tensor);
  EXPECT_TRUE(dma::lower(window(1024, 256, 0), 90).tensor);
  // Rows under 256 bytes: cp.async, for a window (no tensor copy unless
  // forced) as for start() (no bulk copy per row).
  EXPECT_FALSE(dma::lower(window(160, 16, 0), 90).tensor);
  EXPECT_EQ(dma::lower(window(160, 16, 0), 90).mech, dma::mechanism::cp_async);
  EXPECT_EQ(dma::lower(window(288, 16, 0), 90).mech, dma::mechanism::bulk);
  dma::spec small = window(160, 16, 0);
  small.force = dma::mechanism::tensor;
  EXPECT_TRUE(dma::lower(small, 90).tensor);
  dma::spec narrow = s;
  narrow.align = 4;
  EXPECT_FALSE(dma::lower(narrow, 90).tensor);
  EXPECT_NE(std::string(dma::lower(narrow, 90).why_not_tensor), "");
  // Another mechanism forced keeps the tensor copy off; tensor forced where
  // it cannot be is refused on sm_90 only.
  dma::spec bulk = s;
  bulk.force = dma::mechanism::bulk;
  EXPECT_FALSE(dma::lower(bulk, 90).tensor);
  dma::spec forced = window(576, 64, 592);
  forced.force = dma::mechanism::tensor;
  EXPECT_NE(std::string(dma::refused(forced, 2)), "");
  EXPECT_STREQ(dma::refused(forced, 1), "");
  EXPECT_EQ(dma::lower(forced, 80).mech, dma::mechanism::cp_async);
}

dma::spec gather(int bytes, int rows, int src_pitch) {
  dma::spec s;
  s.kind = dma::pattern::indirect;
  s.bytes = bytes;
  s.rows = rows;
  s.src_pitch = src_pitch;
  s.align = 16;
  s.threads = 128;
  return s;
}

TEST(DmaPlan, GatherTakesCpAsyncOnSm80AndSm90) {
  // Measured on an H100 (docs/dma.md): one bulk copy per gathered row is
  // no faster than cp.async, so sm_90 keeps cp.async without force.
  for (int bytes : {16, 128, 512, 1024}) {
    const dma::spec s = gather(bytes, 16384 / bytes, 0);
    EXPECT_EQ(dma::lower(s, 75).mech, dma::mechanism::registers) << bytes;
    EXPECT_EQ(dma::lower(s, 80).mech, dma::mechanism::cp_async) << bytes;
    EXPECT_EQ(dma::lower(s, 90).mech, dma::mechanism::cp_async) << bytes;
    EXPECT_EQ(dma::lower(s, 90).width, 16) << bytes;
    EXPECT_EQ(dma::lower(s, 90).insts, 16384 / 16 / 128) << bytes;
    EXPECT_FALSE(dma::lower(s, 90).guarded) << bytes;
  }
}

TEST(DmaPlan, GatherForcedBulkIsOneCopyPerRow) {
  dma::spec s = gather(512, 200, 0);
  s.force = dma::mechanism::bulk;
  const dma::lowering l = dma::lower(s, 90);
  EXPECT_EQ(l.mech, dma::mechanism::bulk);
  EXPECT_EQ(l.width, 512); // a row per copy, not a chunk of the tile
  EXPECT_EQ(l.insts, 2);   // 200 rows over 128 threads
  EXPECT_TRUE(l.guarded);
  EXPECT_EQ(dma::lower(s, 80).mech, dma::mechanism::cp_async);
  s.bytes = 520; // 8-byte multiple: no bulk copy
  EXPECT_NE(std::string(dma::refused(s, 2)), "");
}

TEST(DmaPlan, GatherPitchesCountForWidthAndFootprint) {
  // The table's pitch limits the access width like a strided pitch does.
  EXPECT_EQ(dma::widest(gather(64, 32, 256)), 16);
  EXPECT_EQ(dma::widest(gather(64, 32, 72)), 8);
  // Elements padded in shared memory: the footprint counts the padding.
  dma::spec padded = gather(64, 32, 0);
  padded.dst_pitch = 80;
  EXPECT_EQ(dma::footprint(padded), 31 * 80 + 64);
  EXPECT_EQ(dma::widest(padded), 16);
  padded.smem_bytes = 2048;
  EXPECT_NE(std::string(dma::invalid(padded)).find("shared memory"),
            std::string::npos);
  // A pitch smaller than the row is an error, as for strided copies.
  EXPECT_NE(std::string(dma::invalid(gather(512, 16, 256))).find("pitch"),
            std::string::npos);
  EXPECT_STREQ(dma::invalid(gather(512, 16, 1024)), "");
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
