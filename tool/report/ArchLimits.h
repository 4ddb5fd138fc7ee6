//===- ArchLimits.h - What one SM of each architecture holds --------------===//
//
// One table row per compute capability nvcc 13 targets: the per-SM and
// per-block limits the CUDA occupancy rules use (as cuda_occupancy.h and the
// Programming Guide's technical specifications state them), and the
// parameters of one reference device per architecture for the performance
// model. docs/report.md lists the values and their sources.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_ARCHLIMITS_H
#define METACU_REPORT_ARCHLIMITS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>

namespace metacu::report {

/// A device of the architecture, for the model: the figures of one product,
/// named, since two products of one compute capability differ.
struct DeviceParams {
  llvm::StringLiteral Name;
  unsigned SMs;
  /// Boost clock.
  double ClockGHz;
  /// DRAM bandwidth, GB/s (10^9 bytes).
  double DramGBps;
  uint64_t L2Bytes;
  /// FP32 and FP64 results per clock per SM; f16 runs on the FP32 lanes
  /// two to an instruction.
  unsigned Fp32Lanes;
  unsigned Fp64Lanes;
  /// Bytes per clock the L1 of one SM delivers to global loads.
  unsigned L1BytesPerClock;
  /// Bytes per clock one SM can move to and from L2 (approximate).
  unsigned L2BytesPerClock;
  /// Cycles from a global load issued to its data, missing in L2.
  unsigned DramLatencyCycles;

  /// The latency a stream of loads sees once the SMs keep DRAM busy: the
  /// bytes in flight per SM at which a read stream reaches the bandwidth,
  /// over the SM's share of it (Little's law). scripts/gpu/loaded_latency.cu
  /// on an H100 (2026-11-23): 32 KiB per SM reach it, 16 KiB 78 to 94% of
  /// it, so 32768 B / (3150 GB/s / 1.98 GHz / 132) = 2720 cycles, 3.9 times
  /// the idle latency. Measured on the H100 only; the other devices are
  /// taken to load theirs as much.
  double loadedLatencyCycles() const {
    return DramLatencyCycles * LoadedLatencyPerIdle;
  }
  static constexpr double LoadedLatencyPerIdle = 2720.0 / 700;
  /// What DRAM spends on each end of a run of consecutive bytes it is
  /// asked for, in bytes of its transfer: a run it sees alone (no block in
  /// flight beside it continues it) costs it twice that on top of its own
  /// bytes. scripts/gpu/model_locality.cu on an H100 (2026-11-26): copying
  /// 8192 x 8192 floats in tiles whose rows go to (or come from) rows 32 KiB
  /// apart, 64, 128 or 256 bytes each, takes 1.10-1.14, 1.05-1.07 and
  /// 1.03-1.04 times a tiled copy whose rows run on, the same DRAM bytes
  /// (Nsight Compute): a run costs about 16 bytes more, 8 an end. Measured on
  /// the H100 only; the other devices are taken to pay as much.
  static constexpr double DramRunEndBytes = 8;
  /// Bytes (counted per thread) a clock that shared memory delivers to a
  /// warp whose 32 lanes all read one address, against 128 to lanes on
  /// distinct words: scripts/gpu/l1_loads.cu on an H100 (2026-11-26) reads
  /// a 32 KiB buffer over and over with the SM full of independent loads.
  /// A warp's 4-, 8- and 16-byte shared loads (PTX ld.shared, 16 in a row
  /// at consecutive addresses) take 1.00, 2.00 and 4.01 clocks on
  /// consecutive words, 0.51, 1.02 and 2.03 on one address: ptxas merges a
  /// run of broadcast words into 16-byte loads (LDS.128), which take 2.03
  /// clocks, so a PTX broadcast load takes half a pass and delivers twice
  /// the bytes. Broadcasts that ptxas cannot merge (not consecutive) were
  /// not measured. Its global loads hitting L1 (ld.global.ca and .nc alike,
  /// not merged) take 1.00, 2.00 and 4.01 clocks on consecutive words and
  /// on one address alike: a global load costs its bytes over
  /// L1BytesPerClock whatever its pattern. Measured on the H100 only; the
  /// other devices are taken to deliver as much.
  static constexpr double SharedBroadcastBytesPerClock = 256;
  /// Global atomics that every block sends to the same words wait for each
  /// other in L2 (BlockCounts' atomic figures). scripts/gpu/atomics.cu on an
  /// H100 (2026-11-27 13:35 UTC, docs/data/atomics-h100.log): every warp of
  /// a full GPU makes 32-bit atomic adds in a row to 1 to 65,536
  /// consecutive 128-byte lines, one lane or all 32 on 1, 2, 8 or 32 words
  /// of the line. Updates of one address are applied one after another,
  /// 0.687 a clock for an integer add (red and atom alike, one lane a warp
  /// or 32), 0.286 for a float add; the distinct words of a line are
  /// applied side by side, up to about 6.4-6.9 updates a clock a line.
  /// Consecutive lines share L2's units, so the updates a clock grow with
  /// the lines as the address hashing spreads them: the table below (warps
  /// of red.u32 a lane a word; red.f32 alike but on one line, 6.8, atom
  /// alike up to 32 lines and 0.66-0.83 of it past them). Measured on the H100
  /// only; the other devices are taken to apply as many.
  static constexpr double AtomicAddressUpdatesPerClock = 0.687;
  static constexpr double AtomicFloatAddressUpdatesPerClock = 0.286;
  struct AtomicLineRate {
    unsigned Lines;
    double UpdatesPerClock;
  };
  static constexpr AtomicLineRate AtomicLineRates[] = {
      {1, 6.357},      {2, 6.887},      {4, 13.618},     {8, 13.773},
      {16, 27.533},    {32, 54.858},    {64, 86.614},    {256, 290.458},
      {1024, 282.806}, {4096, 300.631}, {65536, 313.825}};
  /// The updates a clock L2 applies to Lines lines: the measured rate of
  /// the most lines measured not above it (at least the first).
  static double atomicUpdatesPerClock(double Lines) {
    double Rate = AtomicLineRates[0].UpdatesPerClock;
    for (const AtomicLineRate &R : AtomicLineRates)
      if (R.Lines <= Lines)
        Rate = R.UpdatesPerClock;
    return Rate;
  }
};

struct ArchLimits {
  /// Compute capability: 75, 80, ..., 120.
  unsigned CC;
  unsigned MaxThreadsPerBlock;
  unsigned MaxWarpsPerSM;
  unsigned MaxBlocksPerSM;
  unsigned RegistersPerSM;
  unsigned RegistersPerBlock;
  /// The most registers one thread may be allocated.
  unsigned MaxRegistersPerThread;
  /// A warp's registers are allocated in units of this many.
  unsigned RegisterAllocationUnit;
  /// The register file is split between this many sub-partitions; warps
  /// are placed in one each.
  unsigned SubPartitions;
  /// Shared memory of one SM at its largest carve-out.
  uint64_t SharedPerSM;
  /// The carve-outs the SM can be configured to, KiB, ascending.
  llvm::ArrayRef<unsigned> CarveoutsKiB;
  /// Per block without opting in (cudaFuncAttributeMaxDynamicSharedMemorySize).
  uint64_t SharedPerBlock;
  /// Per block at most, after opting in.
  uint64_t SharedPerBlockOptIn;
  uint64_t SharedAllocationUnit;
  /// The driver's share of each block's shared memory (1 KiB since sm_80).
  uint64_t ReservedSharedPerBlock;
  /// Block barriers available per block slot of the SM; 0 where barriers
  /// do not limit occupancy (before sm_90).
  unsigned BarriersPerBlockSlot;
  /// The SM's unified L1 data cache and shared memory: what the shared
  /// carve-out leaves of it caches global loads (the Programming Guide's
  /// "unified data cache" per compute capability).
  uint64_t L1SharedPerSM;
  DeviceParams Device;
};

/// The row for \p CC, or null for an architecture the table lacks.
const ArchLimits *archLimits(unsigned CC);

/// Every row, ascending.
llvm::ArrayRef<ArchLimits> allArchLimits();

} // namespace metacu::report

#endif
