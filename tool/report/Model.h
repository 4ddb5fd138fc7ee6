//===- Model.h - A phase model of a kernel's run time ---------------------===//
//
// Predicts the time of a launch from what a block executes (BlockCounts),
// what the compiled kernel occupies (ptxas, Occupancy) and one reference
// device per architecture (ArchLimits): per SM and wave of resident blocks,
// a compute phase bounded by instruction issue, the FP pipes and L1/shared
// bandwidth, and a memory phase of DRAM latency and the wave's bytes over
// the SM's share of DRAM bandwidth; the two overlap as resident blocks (or
// warps, without a barrier) desynchronize. The first wave waits for its
// loads; later waves overlap one block's latency with the others'
// transfers, taking the bytes over the bandwidth or, if longer, the DRAM
// latency under load (the loads in flight return once a loaded latency);
// global atomics that every block sends to the same words queue in L2 (in
// the first wave after its transfer, in later ones beside it);
// the grid ends with a drain, and blocks start no faster than
// the GPU dispatches them. docs/report.md gives the formulas. It is meant
// to rank configurations of one kernel, not to predict microseconds
// exactly.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_MODEL_H
#define METACU_REPORT_MODEL_H

#include "report/ArchLimits.h"
#include "report/Occupancy.h"
#include "report/PtxCounts.h"
#include "report/Ptxas.h"

#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <vector>

namespace metacu::report {

enum class Phase { Issue, FloatingPoint, L1Shared, Dram, Latency };

/// "issue", "fp", "l1_shared", "dram", "latency".
llvm::StringRef phaseName(Phase P);

struct Prediction {
  double TimeUs = 0;
  uint64_t GridBlocks = 0;
  /// The launch gave no grid: one full wave was assumed.
  bool GridAssumed = false;
  uint64_t Waves = 0;
  /// Cycles each phase alone takes for one full wave on one SM.
  double IssueCycles = 0, FpCycles = 0, L1SharedCycles = 0, DramCycles = 0,
         LatencyCycles = 0;
  /// The largest of them.
  Phase Bound = Phase::Issue;
  /// A loop whose trip count the model does not know (its body counted
  /// once), a called function's loop or an uncounted call: the time is a
  /// lower bound.
  bool LowerBound = false;
  /// Each loop's passes in a block (BlockCounts::LoopTrips).
  std::vector<std::optional<double>> LoopTrips;
  /// Global bytes a block loads, all in flight before their first use.
  double BlockLoadBytes = 0;
  /// Passes over shared memory's banks a block's accesses take, and how
  /// many of them its bank conflicts add.
  double SharedPasses = 0, SharedConflictPasses = 0;
};

/// \p Occ must allow at least one block per SM.
Prediction predict(const KernelCounts &Counts, const KernelResources &Res,
                   const Occupancy &Occ, const ArchLimits &Limits,
                   const LaunchConfig &Launch);

} // namespace metacu::report

#endif
