//===- Diagnose.cpp -------------------------------------------------------===//
#include "report/Diagnose.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/Support/FormatVariadic.h"

namespace metacu::report {

// "48 KiB" where that is exact, else "1280 bytes".
static std::string bytes(uint64_t N) {
  if (N >= 1024 && N % 1024 == 0)
    return std::to_string(N / 1024) + " KiB";
  return std::to_string(N) + " bytes";
}

// Whether a trip count's values read one of the kernel's parameters whose
// value the launch does not give (Args), which the model makes up.
static bool readsMadeUpParameter(const ThreadValues &V, const TripCount &T,
                                 llvm::ArrayRef<std::optional<int64_t>> Args) {
  llvm::SmallVector<unsigned, 16> Work = {T.Init, T.Step, T.Limit};
  llvm::DenseSet<unsigned> Seen;
  while (!Work.empty()) {
    unsigned N = Work.pop_back_val();
    if (!Seen.insert(N).second)
      continue;
    const ValueNode &Node = V.node(N);
    switch (Node.Op) {
    case ValueOp::Param:
      if (Node.B >= Args.size() || !Args[Node.B])
        return true;
      continue;
    case ValueOp::Constant:
    case ValueOp::ThreadIndex:
    case ValueOp::BlockSize:
    case ValueOp::Lane:
    case ValueOp::WarpIndex:
    case ValueOp::BlockIndex:
    case ValueOp::GridSize:
      continue;
    case ValueOp::Convert:
    case ValueOp::Not:
    case ValueOp::PredNot:
      Work.push_back(Node.A);
      continue;
    case ValueOp::MulAdd:
    case ValueOp::Select:
      Work.push_back(Node.C);
      [[fallthrough]];
    default:
      Work.push_back(Node.A);
      Work.push_back(Node.B);
    }
  }
  return false;
}

static std::string whereAt(const KernelReport &R) {
  std::string S = "on " + R.Target.name();
  if (R.Launch)
    S += " at " + R.Launch->Block.str() + " threads";
  return S;
}

// The most registers per thread, below the kernel's, at which an SM holds
// \p Blocks blocks; 0 if none.
static unsigned registersFor(const KernelReport &R, unsigned Blocks) {
  KernelFootprint F{R.Resources.Registers, R.Resources.StaticSharedBytes,
                    R.Resources.Barriers, R.Counts.MaxThreadsPerBlock};
  while (F.Registers > 0) {
    --F.Registers;
    if (computeOccupancy(*R.Limits, F, *R.Launch).BlocksPerSM >= Blocks)
      return F.Registers;
  }
  return 0;
}

static std::string cannotLaunch(const KernelReport &R) {
  const Occupancy &O = *R.Occ;
  const ArchLimits &L = *R.Limits;
  const LaunchConfig &Launch = *R.Launch;
  std::string Block = Launch.Block.str();
  switch (O.Failure) {
  case LaunchFailure::BlockSize:
    return llvm::formatv("cannot launch: {0} threads per block, at most {1} "
                         "on {2}",
                         Block, L.MaxThreadsPerBlock, R.Target.name());
  case LaunchFailure::LaunchBounds:
    return llvm::formatv("cannot launch: {0} threads exceed the kernel's "
                         "__launch_bounds__ ({1})",
                         Block, *R.Counts.MaxThreadsPerBlock);
  case LaunchFailure::RegisterFile:
    return llvm::formatv(
        "cannot launch: {0} threads x {1} registers exceeds the register "
        "file ({2}) on {3}: at most {4} registers per thread fit",
        Block, R.Resources.Registers, L.RegistersPerBlock, R.Target.name(),
        registersFor(R, 1));
  case LaunchFailure::SharedPerBlock:
    return llvm::formatv(
        "cannot launch: {0} of shared memory per block (static {1}, dynamic "
        "{2}, reserved {3}) exceeds the limit of {4}{5}",
        bytes(O.SharedPerBlock), bytes(R.Resources.StaticSharedBytes),
        bytes(Launch.DynamicSharedBytes), bytes(L.ReservedSharedPerBlock),
        bytes(O.SharedLimitPerBlock - L.ReservedSharedPerBlock),
        Launch.SharedOptIn ||
                O.SharedLimitPerBlock - L.ReservedSharedPerBlock >=
                    L.SharedPerBlockOptIn
            ? std::string()
            : " without opt-in (cudaFuncAttributeMaxDynamicSharedMemorySize "
              "allows up to " +
                  bytes(L.SharedPerBlockOptIn) + ")");
  case LaunchFailure::None:
    break;
  }
  llvm_unreachable("the kernel can launch");
}

// What would give one more block per SM, for the limits the kernel sets.
static std::string oneMoreBlock(const KernelReport &R) {
  const Occupancy &O = *R.Occ;
  if (O.Limit == Limiter::Registers)
    if (unsigned Regs = registersFor(R, O.BlocksPerSM + 1))
      return llvm::formatv(": {0} registers per thread would fit {1} blocks "
                           "(__launch_bounds__({2}, {1}))",
                           Regs, O.BlocksPerSM + 1, R.Launch->Block.count());
  if (O.Limit == Limiter::SharedMemory) {
    uint64_t Per = O.SharedPerSM / (O.BlocksPerSM + 1);
    return llvm::formatv(": {0} per block, reserve included, would fit {1}",
                         bytes(Per - Per % R.Limits->SharedAllocationUnit),
                         O.BlocksPerSM + 1);
  }
  if (O.Limit == Limiter::Blocks)
    return ": larger blocks would hold more warps";
  return "";
}

static std::string limitedBy(const KernelReport &R) {
  const Occupancy &O = *R.Occ;
  const ArchLimits &L = *R.Limits;
  switch (O.Limit) {
  case Limiter::Registers:
    return llvm::formatv("registers ({0} per thread, {1} per block of the "
                         "SM's {2})",
                         R.Resources.Registers, O.RegistersPerBlock,
                         L.RegistersPerSM);
  case Limiter::SharedMemory:
    return llvm::formatv("shared memory ({0} per block of the SM's {1})",
                         bytes(O.SharedPerBlock), bytes(O.SharedPerSM));
  case Limiter::Warps:
    return llvm::formatv("warps ({0} per block, {1} per SM)", O.WarpsPerBlock,
                         L.MaxWarpsPerSM);
  case Limiter::Blocks:
    return llvm::formatv("blocks per SM ({0})", L.MaxBlocksPerSM);
  case Limiter::Barriers:
    return llvm::formatv("barriers ({0} per block)", R.Resources.Barriers);
  case Limiter::CannotLaunch:
    break;
  }
  llvm_unreachable("a kernel that launches has a limiter");
}

std::vector<std::string> diagnose(const KernelReport &R) {
  std::vector<std::string> D;
  const KernelResources &Res = R.Resources;
  if (!R.Limits)
    D.push_back("no limits table for " + R.Target.name() +
                ": occupancy and time are not computed");
  if (Res.SpillStoreBytes || Res.SpillLoadBytes)
    D.push_back(llvm::formatv("spills {0} bytes ({1} reloaded) {2}: lower "
                              "the values per thread or cap registers",
                              Res.SpillStoreBytes, Res.SpillLoadBytes,
                              whereAt(R)));
  else if (Res.StackBytes)
    D.push_back(llvm::formatv(
        "keeps a {0}-byte stack frame in local memory {1}: an array indexed "
        "by values not known at compile time, or a call",
        Res.StackBytes, whereAt(R)));
  // A loop is counted once per pass where its trip count is known, once
  // where it is not, and says so.
  // Lanes that walk an unknown range together share its one count.
  llvm::SmallVector<std::string, 2> Uncounted, MadeUp, Shared;
  for (size_t L = 0; L < R.Counts.Loops.size(); ++L) {
    const Loop &Lp = R.Counts.Loops[L];
    bool Known =
        R.Model ? R.Model->LoopTrips[L].has_value() : Lp.Trip.has_value();
    if (!Known && Lp.Lanes > 1)
      Shared.push_back(
          llvm::formatv("{0}: {1}", Lp.Label, unsigned(Lp.Lanes + 0.5)));
    if (!Known)
      Uncounted.push_back(Lp.Label);
    else if (readsMadeUpParameter(
                 R.Counts.Values, *Lp.Trip,
                 R.Launch ? llvm::ArrayRef(R.Launch->Args)
                          : llvm::ArrayRef<std::optional<int64_t>>()))
      MadeUp.push_back(Lp.Label);
  }
  if (!Uncounted.empty())
    D.push_back(llvm::formatv(
        "has {0} whose trip count the PTX does not give ({1}): counted "
        "once, the predicted time a lower bound",
        Uncounted.size() == 1 ? "a loop" : "loops",
        llvm::join(Uncounted, ", ")));
  if (!Shared.empty())
    D.push_back(llvm::formatv(
        "lanes walk the range of {0} together ({1} lanes), its pointers "
        "stepped past what a pass loads: its body counted once for them "
        "together",
        Shared.size() == 1 ? "a loop" : "loops", llvm::join(Shared, ", ")));
  if (!MadeUp.empty())
    D.push_back(llvm::formatv(
        "the trip count of {0} ({1}) reads the kernel's parameters, whose "
        "values the model makes up (about 2^20 for a size): the predicted "
        "time follows that size (give them with --launch "
        "KERNEL:BLOCK:GRID:ARGS)",
        MadeUp.size() == 1 ? "a loop" : "loops", llvm::join(MadeUp, ", ")));
  if (R.Counts.CalleeHasLoop)
    D.push_back("calls a function with a loop: its body is counted once a "
                "call, the predicted time a lower bound");
  // The model queues the atomics whose addresses it knows (every block
  // updating the same lines, BlockCounts); the others are only stores.
  size_t Placed = R.Counts.GlobalAtomicAccesses.size();
  if (size_t Unplaced = R.Counts.GlobalAtomics -
                        std::min<size_t>(Placed, R.Counts.GlobalAtomics))
    D.push_back(llvm::formatv(
        "has {0} global {1} whose address the model cannot tell (read from "
        "memory, computed from loaded data, or in a called function): "
        "charged as {2}, not as updates that wait for each other in L2",
        Unplaced, Unplaced == 1 ? "atomic" : "atomics",
        Unplaced == 1 ? "a store" : "stores"));
  // Calls nvcc did not inline are counted in, or said not to be: a kernel's
  // work is never left out silently.
  if (!R.Counts.Called.empty())
    D.push_back("calls " +
                llvm::join(llvm::map_range(R.Counts.Called,
                                           [](const std::string &M) {
                                             return llvm::demangle(M);
                                           }),
                           ", ") +
                " (not inlined): counted in, once per call site");
  for (const KernelResources &F : R.CalleeFrames) {
    if (F.SpillStoreBytes || F.SpillLoadBytes)
      D.push_back(llvm::formatv("calls {0}, which spills {1} bytes ({2} "
                                "reloaded) {3}: lower its values per thread",
                                llvm::demangle(F.Mangled), F.SpillStoreBytes,
                                F.SpillLoadBytes, whereAt(R)));
    else if (F.StackBytes)
      D.push_back(llvm::formatv("calls {0}, which keeps a {1}-byte stack "
                                "frame in local memory {2}",
                                llvm::demangle(F.Mangled), F.StackBytes,
                                whereAt(R)));
  }
  for (const UncountedCall &U : R.Counts.Uncounted)
    D.push_back(
        U.Why == "recursive"
            ? llvm::formatv("calls {0} recursively: its body is counted "
                            "once, not its calls to itself; the predicted "
                            "time a lower bound",
                            llvm::demangle(U.Callee))
                  .str()
            : llvm::formatv("calls {0} ({1}): its work is not counted, the "
                            "predicted time a lower bound",
                            llvm::demangle(U.Callee), U.Why)
                  .str());
  if (R.Occ && R.Occ->Failure != LaunchFailure::None)
    D.push_back(cannotLaunch(R));
  else if (R.Occ && R.Occ->Fraction < 1)
    D.push_back(llvm::formatv("occupancy {0}% {1} is limited by {2}{3}",
                              occupancyPercent(*R.Occ), whereAt(R),
                              limitedBy(R), oneMoreBlock(R)));
  // Conflicts worth a tenth more passes over the banks.
  double Free =
      R.Model ? R.Model->SharedPasses - R.Model->SharedConflictPasses : 0;
  if (R.Model && R.Model->SharedConflictPasses > 0.1 * Free)
    D.push_back(llvm::formatv(
        "shared-memory bank conflicts {0}: a block's shared loads and "
        "stores take {1:0} passes over the banks where {2:0} would do "
        "({3:1}x): pad the rows of the shared array or change the stride "
        "between lanes",
        whereAt(R), R.Model->SharedPasses, Free, R.Model->SharedPasses / Free));
  if (R.Model && R.Model->Bound == Phase::Latency) {
    const DeviceParams &Dev = R.Limits->Device;
    double InFlight = R.Model->BlockLoadBytes * R.Occ->BlocksPerSM;
    double Needed =
        Dev.DramGBps / Dev.ClockGHz / Dev.SMs * Dev.loadedLatencyCycles();
    // Either DRAM latency is not covered by the loads in flight, or too few
    // warps are resident to keep the schedulers busy.
    if (R.Counts.GlobalLoads.Instructions && InFlight < Needed)
      D.push_back(llvm::formatv(
          "latency-bound {0}: {1} bytes of loads in flight per SM, about "
          "{2:0} needed to cover DRAM latency on a {3}: more values per "
          "thread or more resident warps",
          whereAt(R), uint64_t(InFlight), Needed, Dev.Name));
    else
      D.push_back(llvm::formatv(
          "latency-bound {0}: {1} resident warps per SM cannot keep its "
          "schedulers issuing: more resident warps (fewer registers or less "
          "shared memory per block)",
          whereAt(R), R.Occ->BlocksPerSM * R.Occ->WarpsPerBlock));
  }
  return D;
}

} // namespace metacu::report
