//===- Model.cpp ----------------------------------------------------------===//
#include "report/Model.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <cassert>

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
// Starting and retiring a wave of blocks on an SM.
static constexpr double WaveStartCycles = 150;
static constexpr double WarpSize = 32;

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
  double Bytes;
  // Until a block's first global load returns, and one warp's path through
  // the kernel when nothing else competes.
  double MemoryLatency, WarpPath;
};

BlockCost blockCost(const KernelCounts &C, const KernelResources &R,
                    const DeviceParams &D, unsigned Warps) {
  BlockCost B;
  B.Issue = C.Instructions * Warps / IssuePerClock;
  double FpPerWarp =
      (C.fpInstructions(FpType::F32) + C.fpInstructions(FpType::F16)) *
          WarpSize / D.Fp32Lanes +
      C.fpInstructions(FpType::F64) * WarpSize / D.Fp64Lanes;
  B.Fp = FpPerWarp * Warps;
  // A warp's shared access takes at least one pass of the banks; global and
  // local traffic passes L1 at its own rate. Spills are local traffic.
  double SharedBytes = double(C.SharedLoads.Bytes + C.SharedStores.Bytes);
  double SharedPasses =
      std::max<double>(C.SharedLoads.Instructions + C.SharedStores.Instructions,
                       SharedBytes * WarpSize / SharedBytesPerClock);
  double L1Bytes =
      double(C.GlobalLoads.Bytes + C.GlobalStores.Bytes +
             C.LocalAccesses.Bytes + R.SpillLoadBytes + R.SpillStoreBytes);
  B.L1Shared = (SharedPasses + L1Bytes * WarpSize / D.L1BytesPerClock) * Warps;
  B.Bytes =
      double(C.GlobalLoads.Bytes + C.GlobalStores.Bytes) * WarpSize * Warps;
  B.MemoryLatency = C.GlobalLoads.Instructions ? D.DramLatencyCycles : 0;
  B.WarpPath = C.Instructions * WarpCyclesPerInstruction;
  return B;
}

struct WaveTime {
  double Cycles;
  double Issue, Fp, L1Shared, Dram, Latency;
};

// N blocks on each of ActiveSMs SMs. Within a block the compute waits for
// its loads; across blocks the phases overlap, fully once blocks are many.
WaveTime waveTime(const BlockCost &B, const DeviceParams &D, double N,
                  double ActiveSMs, bool L2Resident) {
  WaveTime W;
  double DramShare = D.DramGBps / D.ClockGHz / ActiveSMs;
  double BytesPerClock = L2Resident
                             ? D.L2BytesPerClock
                             : std::min<double>(D.L2BytesPerClock, DramShare);
  W.Issue = N * B.Issue;
  W.Fp = N * B.Fp;
  W.L1Shared = N * B.L1Shared;
  W.Dram = N * B.Bytes / BytesPerClock;
  W.Latency = B.MemoryLatency + B.WarpPath;
  double Compute = std::max({W.Issue, W.Fp, W.L1Shared});
  double Memory = B.MemoryLatency + W.Dram;
  double Longer = std::max(Memory, Compute);
  double Shorter = std::min(Memory, Compute);
  W.Cycles = WaveStartCycles + std::max(Longer + Shorter / N, W.Latency);
  return W;
}

} // namespace

Prediction predict(const KernelCounts &C, const KernelResources &R,
                   const Occupancy &Occ, const ArchLimits &L,
                   const LaunchConfig &Launch) {
  assert(Occ.BlocksPerSM > 0 && "a kernel that cannot launch has no time");
  const DeviceParams &D = L.Device;
  Prediction P;
  P.LowerBound = C.HasLoop;
  uint64_t PerWave = uint64_t(Occ.BlocksPerSM) * D.SMs;
  P.GridAssumed = !Launch.GridBlocks;
  P.GridBlocks = Launch.GridBlocks.value_or(PerWave);
  P.Waves = llvm::divideCeil(P.GridBlocks, PerWave);

  BlockCost B = blockCost(C, R, D, Occ.WarpsPerBlock);
  // Repeated launches over data that fits in L2 never reach DRAM. An
  // assumed wave stands for the steady state of a large grid, which does.
  bool L2Resident =
      !P.GridAssumed && B.Bytes * P.GridBlocks <= double(D.L2Bytes);
  WaveTime Full = waveTime(B, D, Occ.BlocksPerSM, D.SMs, L2Resident);
  uint64_t FullWaves = P.GridBlocks / PerWave, Rest = P.GridBlocks % PerWave;
  double Cycles = FullWaves * Full.Cycles;
  if (Rest) {
    double ActiveSMs = std::min<uint64_t>(Rest, D.SMs);
    Cycles +=
        waveTime(B, D, llvm::divideCeil(Rest, D.SMs), ActiveSMs, L2Resident)
            .Cycles;
  }
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
