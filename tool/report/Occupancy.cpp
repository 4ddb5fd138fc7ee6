//===- Occupancy.cpp ------------------------------------------------------===//
#include "report/Occupancy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/MathExtras.h"
#include <algorithm>
#include <climits>

namespace metacu::report {

static constexpr unsigned WarpSize = 32;

std::string Dim3::str() const {
  std::string S = std::to_string(X);
  if (Y != 1 || Z != 1)
    S += "x" + std::to_string(Y);
  if (Z != 1)
    S += "x" + std::to_string(Z);
  return S;
}

llvm::Expected<Dim3> Dim3::parse(llvm::StringRef Text, const Dim3 &Max) {
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, Text.contains(',') ? ',' : 'x');
  unsigned Values[3] = {1, 1, 1};
  bool Bad = Parts.size() > 3;
  for (size_t I = 0; I < Parts.size() && !Bad; ++I)
    Bad = Parts[I].trim().getAsInteger(10, Values[I]) || Values[I] == 0;
  if (Bad)
    return llvm::createStringError("'" + Text.str() +
                                   "' is no extent: write N, NxM or NxMxK");
  Dim3 D{Values[0], Values[1], Values[2]};
  if (D.X > Max.X || D.Y > Max.Y || D.Z > Max.Z)
    return llvm::createStringError(
        "'" + Text.str() + "' is larger than CUDA allows: at most " +
        std::to_string(Max.X) + "x" + std::to_string(Max.Y) + "x" +
        std::to_string(Max.Z));
  return D;
}

llvm::StringRef limiterName(Limiter L) {
  switch (L) {
  case Limiter::Warps:
    return "warps";
  case Limiter::Blocks:
    return "blocks";
  case Limiter::Registers:
    return "registers";
  case Limiter::SharedMemory:
    return "shared_memory";
  case Limiter::Barriers:
    return "barriers";
  case Limiter::CannotLaunch:
    return "cannot_launch";
  }
  llvm_unreachable("unknown limiter");
}

uint64_t carveoutFor(const ArchLimits &L, uint64_t Bytes) {
  for (unsigned KiB : L.CarveoutsKiB)
    if (Bytes <= uint64_t(KiB) * 1024)
      return uint64_t(KiB) * 1024;
  return 0;
}

Occupancy computeOccupancy(const ArchLimits &L, const KernelFootprint &K,
                           const LaunchConfig &Launch) {
  Occupancy R;
  uint64_t Threads = Launch.Block.count();
  if (Threads == 0) {
    R.Failure = LaunchFailure::BlockSize;
    return R;
  }
  R.WarpsPerBlock = llvm::divideCeil(Threads, WarpSize);

  // Registers: per warp, rounded to the allocation unit; each sub-partition
  // holds whole warps. The hardware's per-block check assumes the block's
  // warps are spread over every sub-partition.
  unsigned RegsPerWarp =
      llvm::alignTo(K.Registers * WarpSize, L.RegisterAllocationUnit);
  R.RegistersPerBlock = RegsPerWarp * R.WarpsPerBlock;
  unsigned AssumedPerBlock =
      RegsPerWarp * llvm::alignTo(R.WarpsPerBlock, L.SubPartitions);
  bool RegistersFit = K.Registers <= L.MaxRegistersPerThread &&
                      R.RegistersPerBlock <= L.RegistersPerBlock &&
                      AssumedPerBlock <= L.RegistersPerBlock;
  if (!RegistersFit)
    R.ByRegisters = 0;
  else if (RegsPerWarp == 0)
    R.ByRegisters = UINT_MAX;
  else
    R.ByRegisters = (L.RegistersPerSM / L.SubPartitions / RegsPerWarp) *
                    L.SubPartitions / R.WarpsPerBlock;

  R.ByWarps =
      Threads > L.MaxThreadsPerBlock ? 0 : L.MaxWarpsPerSM / R.WarpsPerBlock;
  R.ByBlocks = L.MaxBlocksPerSM;

  // Shared memory: what the block uses plus the driver's reserve, rounded to
  // the allocation unit, against the per-block limit (raised by opting in)
  // and the carve-out: the preferred one if a block fits in it, else the
  // smallest that holds one block.
  uint64_t Static = K.StaticSharedBytes + L.ReservedSharedPerBlock;
  R.SharedPerBlock =
      llvm::alignTo(Static + Launch.DynamicSharedBytes, L.SharedAllocationUnit);
  bool OptedIn = Launch.SharedOptIn &&
                 Static + Launch.DynamicSharedBytes > L.SharedPerBlock;
  R.SharedLimitPerBlock = (OptedIn ? L.SharedPerBlockOptIn : L.SharedPerBlock) +
                          L.ReservedSharedPerBlock;
  uint64_t Preferred =
      Launch.CarveoutPercent
          ? carveoutFor(L, *Launch.CarveoutPercent * L.SharedPerSM / 100)
          : L.SharedPerSM;
  R.SharedPerSM = Preferred >= R.SharedPerBlock
                      ? Preferred
                      : carveoutFor(L, R.SharedPerBlock);
  if (R.SharedPerBlock > R.SharedLimitPerBlock)
    R.BySharedMemory = 0;
  else if (R.SharedPerBlock == 0)
    R.BySharedMemory = UINT_MAX;
  else
    R.BySharedMemory = R.SharedPerSM / R.SharedPerBlock;

  // Barriers count from sm_90 on, against the block slots of the SM.
  R.ByBarriers = L.BarriersPerBlockSlot && K.Barriers
                     ? L.BarriersPerBlockSlot * L.MaxBlocksPerSM / K.Barriers
                     : UINT_MAX;

  if (Threads > L.MaxThreadsPerBlock)
    R.Failure = LaunchFailure::BlockSize;
  else if (K.MaxThreadsPerBlock && Threads > *K.MaxThreadsPerBlock)
    R.Failure = LaunchFailure::LaunchBounds;
  else if (!RegistersFit)
    R.Failure = LaunchFailure::RegisterFile;
  else if (R.BySharedMemory == 0)
    R.Failure = LaunchFailure::SharedPerBlock;
  if (R.Failure != LaunchFailure::None)
    return R;

  R.BlocksPerSM = std::min(
      {R.ByWarps, R.ByBlocks, R.ByRegisters, R.BySharedMemory, R.ByBarriers});
  // Ties go to the limit the kernel cannot change (warps, blocks) before
  // those it can, so a diagnosis never suggests a change that gains nothing.
  std::pair<unsigned, Limiter> Order[] = {
      {R.ByWarps, Limiter::Warps},
      {R.ByBlocks, Limiter::Blocks},
      {R.ByRegisters, Limiter::Registers},
      {R.BySharedMemory, Limiter::SharedMemory},
      {R.ByBarriers, Limiter::Barriers}};
  R.Limit = llvm::find_if(Order, [&](const auto &P) {
              return P.first == R.BlocksPerSM;
            })->second;
  R.Fraction =
      double(R.BlocksPerSM * R.WarpsPerBlock) / double(L.MaxWarpsPerSM);
  return R;
}

} // namespace metacu::report
