//===- Model.cpp ----------------------------------------------------------===//
#include "report/Model.h"

#include "report/BlockCounts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cassert>
#include <cmath>

namespace metacu::report {

// Constants shared by every architecture since Volta: four schedulers per
// SM issuing one warp instruction per clock each, shared memory delivering
// 128 bytes (32 banks of 4) per clock. A warp alone issues about one
// instruction every four clocks, the FP latency: unrolled code offers
// independent instructions, but shared-memory loads (about 30 clocks) feed
// most of them. Fitted loosely: 2 ranks the convolution sample's measured
// candidates worse (docs/report.md).
static constexpr double IssuePerClock = 4;
static constexpr double SharedBytesPerClock = 128;
static constexpr double WarpCyclesPerInstruction = 4;
static constexpr double WarpSize = 32;
// Blocks the GPU starts per clock, over all its SMs, however little they do:
// scripts/gpu/block_rate.cu measured 1652 blocks per microsecond at 1.98 GHz
// on an H100 for blocks of 32 to 512 threads (2026-11-23), which is where the
// axpy sample's smallest blocks run. Measured on sm_90 only; the other
// architectures are taken to dispatch as many per clock.
static constexpr double BlocksPerClock = 0.835;
// After the first wave, resident blocks end and are replaced at different
// times on each SM, so the SMs also run out of blocks at times spread over
// one block lifetime (a wave's duration): half of it is lost on average.
// The spread builds up over the first steady wave; a grid of little more
// than one wave still ends nearly in step.
static constexpr double DrainWaves = 0.5;

llvm::StringRef phaseName(Phase P) {
  switch (P) {
  case Phase::Issue:
    return "issue";
  case Phase::FloatingPoint:
    return "fp";
  case Phase::L1Shared:
    return "l1_shared";
  case Phase::Dram:
    return "dram";
  case Phase::Latency:
    return "latency";
  }
  llvm_unreachable("unknown phase");
}

namespace {

// What one block costs an SM, in cycles of each resource, and what it moves.
struct BlockCost {
  double Issue, Fp, L1Shared;
  // Of L1Shared, the passes over the banks.
  double SharedPasses;
  // Global bytes from DRAM (loaded and stored), stored alone, and loaded
  // from L2: what neighbouring blocks loaded already.
  double Bytes, StoreBytes, L2Bytes;
  // Until a block's first global load returns, on an idle GPU and under a
  // stream of loads (DeviceParams::loadedLatencyCycles), and one warp's
  // path through the kernel when nothing else competes.
  double MemoryLatency, LoadedLatency, WarpPath;
  // The latencies a thread waits for in a row (BlockCounts::LoadRounds).
  double LoadRounds;
  // Whether that loop stores too (BlockCounts::LoadRoundsStore).
  bool LoadRoundsStore;
  // What waits for its own loads: the block when the kernel has a barrier
  // (its warps leave it together) where they wait, otherwise each warp on
  // its own.
  double WaitingUnits;
  // Cycles L2 takes for the atomics that every block sends to the same
  // words, one block's share, and whether they come after the block's
  // loads.
  double Atomics;
  bool AtomicsAfterLoads;
};

// The share of a block's rereads (BlockCounts::RereadSectors) that a cache
// of Capacity bytes still holds when they come, where each of the block's
// sectors brought in (Fresh, and the rereads it no longer holds) comes with
// Scale bytes that the cache takes in meanwhile. A line survives each byte
// taken in with the odds of one not chosen to leave, exp(-bytes /
// Capacity) in all, whatever else reuses it: the sectors brought in, not
// those touched, push it out. Its own misses push in more, so the share
// solves h = exp(-Scale (Fresh + Rereads (1 - h)) / Capacity).
static double keptShare(double Fresh, double Rereads, double Scale,
                        double Capacity) {
  double Low = 0, High = 1;
  for (int I = 0; I < 60; ++I) {
    double H = (Low + High) / 2;
    if (H < std::exp(-Scale * (Fresh + Rereads * (1 - H)) / Capacity))
      Low = H;
    else
      High = H;
  }
  return (Low + High) / 2;
}

// Sharers blocks on an SM whose L1 keeps L1Capacity bytes of global data.
BlockCost blockCost(const BlockCounts &K, const KernelResources &R,
                    const DeviceParams &D, double Sharers, double L1Capacity) {
  BlockCost B;
  B.Issue = K.WarpInstructions / IssuePerClock;
  B.Fp = (K.fpWarpInstructions(FpType::F32) +
          K.fpWarpInstructions(FpType::F16)) *
             WarpSize / D.Fp32Lanes +
         K.fpWarpInstructions(FpType::F64) * WarpSize / D.Fp64Lanes;
  // A warp's shared access takes at least one pass of the banks and
  // delivers 128 bytes a pass; a broadcast (all lanes on one address) takes
  // the share of a pass, and delivers its bytes at the rate, that
  // DeviceParams::SharedBroadcastBytesPerClock measured for it (per PTX
  // load, as ptxas compiles them). Global and local traffic passes L1 at
  // its own rate whatever its pattern (an L1-hit broadcast takes as long as
  // a coalesced load). Spills are local traffic.
  double BroadcastSaved =
      1 - SharedBytesPerClock / DeviceParams::SharedBroadcastBytesPerClock;
  B.SharedPasses =
      std::max(K.SharedLoads.WarpInstructions +
                   K.SharedStores.WarpInstructions -
                   K.SharedBroadcasts.WarpInstructions * BroadcastSaved,
               (K.SharedLoads.Bytes + K.SharedStores.Bytes -
                K.SharedBroadcasts.Bytes * BroadcastSaved) /
                   SharedBytesPerClock) +
      K.SharedConflictPasses;
  double L1Bytes = K.GlobalLoads.Bytes + K.GlobalStores.Bytes +
                   K.LocalAccesses.Bytes +
                   double(R.SpillLoadBytes + R.SpillStoreBytes) * K.Threads;
  B.L1Shared = B.SharedPasses + L1Bytes / D.L1BytesPerClock;
  // Of the loads whose sectors are known, those sectors loaded once come
  // from DRAM (bytes in full sectors at most), those a neighbouring block
  // loaded before from L2, and the block's own rereads (threads of the
  // block loading a sector alike, a pass finding what the pass before
  // loaded) from the SM's L1, whose traffic L1Bytes already counts: they
  // take no DRAM or L2 transfer. Counting them at L2's rate charged a 3D
  // stencil's in-plane neighbours, four loads of five a pass, as much as
  // its rows from other blocks (docs/report.md, "Kernels the model was not
  // built around").
  double Known = std::min(K.KnownLoadBytes, K.GlobalLoads.Bytes);
  double Fresh = std::min(Known, 32 * (K.LoadSectors - K.ReusedSectors));
  B.L2Bytes = std::min(Known - Fresh, 32 * K.ReusedSectors);
  // DRAM pays for every run of bytes that nothing in flight beside the
  // block continues (DeviceParams::DramRunEndBytes): a transpose's rows of
  // 64 bytes cost it a quarter more than their bytes, a copy's long rows
  // nothing measurable. Taken from the known accesses, loads and stores
  // apart, for all of them.
  auto RunCost = [&](unsigned Stores) {
    return K.RunSectors[Stores] > 0
               ? 1 + DeviceParams::DramRunEndBytes * K.RunEnds[Stores] /
                         (32 * K.RunSectors[Stores])
               : 1;
  };
  // A block's rereads at a distance (a pass after the one that loaded,
  // a loop after the one that did) find their sector in L1 while what
  // the SM's Sharers blocks bring in between leaves it there: each of the
  // block's sectors brought in comes with Sharers blocks' share of the
  // distance over the block's sector loads. Those it no longer holds come
  // from L2 while what every SM brings in from DRAM meanwhile leaves them
  // there, else from DRAM. softmax's second and third walk over 8 KiB rows
  // find them in L1 at 4 rows an SM and miss it at 32 to 64, its rows
  // then read two and a half to three times from DRAM (Nsight Compute,
  // docs/report.md, "A reread's distance").
  double DramRereads = 0, MissedShare = 1;
  if (K.RereadSectors > 0 && K.SectorLoads > 0) {
    double Scale = Sharers * 32 * K.RereadDistance / K.SectorLoads;
    // What the block brings in besides its rereads: its known loads'
    // sectors loaded once, its other loads and its stores (which take
    // lines in L1 and L2 alike: with them the share of softmax's rereads
    // that hit L1, 0.04 to 1.0 by Nsight Compute over 31 configurations,
    // comes out within 0.19 of it, 0.02 too high on average).
    double BroughtIn =
        K.LoadSectors +
        (K.GlobalLoads.Bytes - Known + K.GlobalStores.Bytes) / 32;
    MissedShare = 1 - keptShare(BroughtIn, K.RereadSectors, Scale, L1Capacity);
    double Missed = K.RereadSectors * MissedShare;
    double InL2 =
        keptShare(BroughtIn, Missed, Scale * D.SMs, double(D.L2Bytes));
    B.L2Bytes += 32 * Missed * InL2;
    DramRereads = 32 * Missed * (1 - InL2);
  }
  B.StoreBytes = K.GlobalStores.Bytes * RunCost(1);
  B.Bytes = (K.GlobalLoads.Bytes - Known + Fresh + DramRereads) * RunCost(0) +
            B.StoreBytes;
  bool Loads = K.GlobalLoads.WarpInstructions > 0;
  B.MemoryLatency = Loads ? D.DramLatencyCycles : 0;
  B.LoadedLatency = Loads ? D.loadedLatencyCycles() : 0;
  B.WarpPath = K.LongestWarp * WarpCyclesPerInstruction;
  // The passes that walk again what a loop before them loaded wait where
  // L1 no longer holds it.
  B.LoadRounds = K.LoadRounds + K.RereadRounds * MissedShare;
  B.LoadRoundsStore = K.LoadRoundsStore;
  // A grid-stride loop that loads with no barrier in it lets the warps
  // drift apart over its passes, barriers before and after it
  // notwithstanding: histogram's loop between clearing its bins and adding
  // them up, where one block of 1,024 threads an SM measured 1.3 times
  // faster than the block waiting as one unit. A loop over a row or a tile
  // between a block's barriers (softmax's, batched_mm's) keeps the block in
  // step: taken apart, they were predicted 10-30% faster where they
  // measure slower (docs/report.md, "Grid-stride loops, lanes that share a
  // range, overlapping windows").
  bool WarpsOnTheirOwn = !R.Barriers || (K.LoadRounds > 1 && K.LoadRoundsApart);
  B.WaitingUnits = WarpsOnTheirOwn ? K.Warps : 1;
  // L2 applies the updates of one address one after another, and those of
  // the lines at the rate their number allows (DeviceParams): the slower of
  // the two.
  B.Atomics = std::max(
      K.AtomicAddressUpdates /
          (K.AtomicsFloat ? DeviceParams::AtomicFloatAddressUpdatesPerClock
                          : DeviceParams::AtomicAddressUpdatesPerClock),
      K.AtomicUpdates / DeviceParams::atomicUpdatesPerClock(K.AtomicLines));
  B.AtomicsAfterLoads = K.AtomicsAfterLoads;
  return B;
}

struct WaveTime {
  double Cycles;
  double Issue, Fp, L1Shared, Dram, Latency, Atomics;
};

// N blocks on each of ActiveSMs SMs. In the first wave every block starts
// at once, as fast as the GPU dispatches them, and waits for its loads
// before they stream in. In a steady wave (after the first, blocks replaced
// as they end) the blocks are out of step: one block's latency overlaps the
// others' transfers, so the wave's memory time is its bytes over the
// bandwidth or, if longer, one latency under load: unrolled code issues a
// block's loads before their first use, so the loads of the wave's blocks
// are in flight together and come back at most once a loaded latency
// (Little's law). A block that waits as one unit (at a barrier, or a
// block of one warp) stores only after that latency, and its stores then
// take their turn on the SM's share of the bandwidth before the block ends:
// Nsight Compute on the stencil sample's blocks of two rows a thread shows
// them stalled on loads and at the barrier with DRAM at 50-62% of its peak
// (docs/report.md). Warps that wait on their own overlap one warp's stores
// with the others' loads. Within a block
// with a barrier the compute waits for the block's loads, within a warp for
// the warp's; across those units the phases overlap, fully once they are
// many.
WaveTime waveTime(const BlockCost &B, const DeviceParams &D, double N,
                  double ActiveSMs, bool L2Resident, bool Steady) {
  WaveTime W;
  double DramShare = D.DramGBps / D.ClockGHz / ActiveSMs;
  double BytesPerClock = L2Resident
                             ? D.L2BytesPerClock
                             : std::min<double>(D.L2BytesPerClock, DramShare);
  W.Issue = N * B.Issue;
  W.Fp = N * B.Fp;
  W.L1Shared = N * B.L1Shared;
  W.Dram = N * (B.Bytes / BytesPerClock + B.L2Bytes / D.L2BytesPerClock);
  // The wave's blocks all update the same words: L2 takes their atomics
  // in turn.
  W.Atomics = N * ActiveSMs * B.Atomics;
  // A warp alone waits for each round of its loads in turn.
  W.Latency = B.LoadRounds * B.MemoryLatency + B.WarpPath;
  double Compute = std::max({W.Issue, W.Fp, W.L1Shared});
  double StoresAfterLoads = B.WaitingUnits == 1 && B.LoadedLatency > 0
                                ? N * B.StoreBytes / BytesPerClock
                                : 0;
  // A loop that loads waits once a pass: however few bytes a pass has in
  // flight, a round takes at least the idle latency, and a pass's loads
  // also wait for those queued ahead of them, the wave's transfer shared
  // out over its passes. The two overlap in part: their root-sum-square
  // (a pass's latency against the bytes the SM keeps in flight,
  // docs/report.md, "Loops").
  double Rounds = B.LoadRounds * B.MemoryLatency;
  if (B.LoadRounds > 1)
    Rounds = std::hypot(Rounds, W.Dram);
  // In the first wave the blocks start together and stay in step: where
  // each pass loads, computes and then stores, every SM's loads of a pass
  // go out together behind the stores of the pass before, and no block in
  // another phase fills the wait. The passes then take the latency under
  // load and their transfer in turn: the 3D stencil's single wave of
  // 256-plane chunks takes 1.26-1.36 times its bandwidth time, where its
  // 16-plane chunks over 15 steady waves take 1.03-1.16 (docs/report.md,
  // "Kernels the model was not built around"). A loop that only loads (a
  // grid-stride reduction, a k loop) keeps the root-sum-square.
  if (!Steady && B.LoadRounds > 1 && B.LoadRoundsStore)
    Rounds = B.LoadRounds * B.LoadedLatency + W.Dram;
  // The first wave's blocks, in step, send their atomics together once
  // their loads are in (a block's result added at its end): the line's
  // queue then follows the transfer. Blocks out of step spread them over
  // the wave, where they overlap the others' transfers.
  double Memory = Steady ? std::max({W.Dram, B.LoadedLatency + StoresAfterLoads,
                                     Rounds, W.Atomics})
                  : B.AtomicsAfterLoads
                      ? std::max(B.MemoryLatency + W.Dram, Rounds) + W.Atomics
                      : std::max({B.MemoryLatency + W.Dram, Rounds, W.Atomics});
  double Longer = std::max(Memory, Compute);
  double Shorter = std::min(Memory, Compute);
  // The dispatch of a steady wave's blocks overlaps the blocks running.
  double Start = Steady ? 0 : N * ActiveSMs / BlocksPerClock;
  W.Cycles =
      Start + std::max(Longer + Shorter / (N * B.WaitingUnits), W.Latency);
  return W;
}

} // namespace

Prediction predict(const KernelCounts &C, const KernelResources &R,
                   const Occupancy &Occ, const ArchLimits &L,
                   const LaunchConfig &Launch) {
  assert(Occ.BlocksPerSM > 0 && "a kernel that cannot launch has no time");
  const DeviceParams &D = L.Device;
  Prediction P;
  uint64_t PerWave = uint64_t(Occ.BlocksPerSM) * D.SMs;
  P.GridAssumed = !Launch.Grid;
  P.GridBlocks = Launch.Grid ? Launch.Grid->count() : PerWave;
  P.Waves = llvm::divideCeil(P.GridBlocks, PerWave);

  BlockCounts Block =
      blockCounts(C, Launch.Block, Launch.Grid, D.L2Bytes, Launch.Args);
  P.LoopTrips = Block.LoopTrips;
  P.LowerBound = C.CalleeHasLoop || !C.Uncounted.empty() ||
                 llvm::is_contained(Block.LoopTrips, std::nullopt);
  P.BlockLoadBytes = Block.GlobalLoads.Bytes;
  // What the shared carve-out the resident blocks need leaves of the SM's
  // L1 caches global data.
  double L1Capacity =
      std::max(1.0, double(L.L1SharedPerSM) -
                        double(carveoutFor(L, uint64_t(Occ.BlocksPerSM) *
                                                  Occ.SharedPerBlock)));
  BlockCost B = blockCost(Block, R, D, Occ.BlocksPerSM, L1Capacity);
  P.SharedPasses = B.SharedPasses;
  P.SharedConflictPasses = Block.SharedConflictPasses;
  // Repeated launches over data that fits in L2 never reach DRAM. An
  // assumed wave stands for the steady state of a large grid, which does.
  bool L2Resident =
      !P.GridAssumed &&
      (B.Bytes + B.L2Bytes) * P.GridBlocks <= double(D.L2Bytes);
  WaveTime Full = waveTime(B, D, Occ.BlocksPerSM, D.SMs, L2Resident, false);
  double Cycles;
  if (P.GridBlocks <= PerWave) {
    double ActiveSMs = std::min<uint64_t>(P.GridBlocks, D.SMs);
    Cycles = waveTime(B, D, llvm::divideCeil(P.GridBlocks, D.SMs), ActiveSMs,
                      L2Resident, false)
                 .Cycles;
  } else {
    // The first wave, then the rest of the grid in steady waves (a fraction
    // of one for the last blocks, which the SMs share out of step), and the
    // drain.
    double AfterFirst = double(P.GridBlocks) / PerWave - 1;
    double SteadyWaves = AfterFirst + DrainWaves * std::min(AfterFirst, 1.0);
    Cycles =
        Full.Cycles +
        SteadyWaves *
            waveTime(B, D, Occ.BlocksPerSM, D.SMs, L2Resident, true).Cycles;
  }
  // Blocks cannot start faster than the GPU dispatches them.
  Cycles = std::max(Cycles, P.GridBlocks / BlocksPerClock);
  P.TimeUs = Cycles / (D.ClockGHz * 1e3);

  P.IssueCycles = Full.Issue;
  P.FpCycles = Full.Fp;
  P.L1SharedCycles = Full.L1Shared;
  P.DramCycles = Full.Dram;
  P.LatencyCycles = Full.Latency;
  std::pair<double, Phase> Phases[] = {{Full.Issue, Phase::Issue},
                                       {Full.Fp, Phase::FloatingPoint},
                                       {Full.L1Shared, Phase::L1Shared},
                                       {Full.Dram, Phase::Dram},
                                       {Full.Latency, Phase::Latency}};
  P.Bound = llvm::max_element(Phases, llvm::less_first())->second;
  return P;
}

} // namespace metacu::report
