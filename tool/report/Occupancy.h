//===- Occupancy.h - Resident blocks per SM, by the CUDA occupancy rules --===//
//
// How many blocks of a kernel one SM holds at a launch configuration, and
// what stops it holding more, computed as the CUDA runtime's occupancy
// calculator does (cuda_occupancy.h): registers allocated per warp in units
// and placed in sub-partitions, shared memory rounded to its unit plus the
// driver's reserve, the carve-out the default preference selects, the
// per-block limits with and without opt-in, warps, blocks and barriers per
// SM. On a GPU this must equal cudaOccupancyMaxActiveBlocksPerMultiprocessor
// for the same cubin.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_OCCUPANCY_H
#define METACU_REPORT_OCCUPANCY_H

#include "report/ArchLimits.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu::report {

/// A block's or grid's extent.
struct Dim3 {
  unsigned X = 1, Y = 1, Z = 1;
  uint64_t count() const { return uint64_t(X) * Y * Z; }
  /// "256", "64x8", "8x8x4": as a user writes it.
  std::string str() const;
  /// Reads what str() writes; ',' may stand for 'x'. Each extent must be
  /// at most \p Max's (CUDA's MaxBlock or MaxGrid).
  static llvm::Expected<Dim3> parse(llvm::StringRef Text, const Dim3 &Max);
};

/// The largest block and grid a launch can have on every architecture
/// (cudaDeviceProp::maxThreadsDim, maxGridSize); a block of more than 1024
/// threads in all is the model's to refuse.
inline constexpr Dim3 MaxBlock{1024, 1024, 64};
inline constexpr Dim3 MaxGrid{2147483647u, 65535, 65535};

/// A kernel's launch, as far as the report needs it. Supplied per kernel, so
/// that each can have its own (from the command line today, from the
/// kernel's @meta table later).
struct LaunchConfig {
  Dim3 Block;
  uint64_t DynamicSharedBytes = 0;
  /// The kernel raised cudaFuncAttributeMaxDynamicSharedMemorySize to its
  /// dynamic size, as it must to exceed the default per-block limit.
  bool SharedOptIn = false;
  /// cudaFuncAttributePreferredSharedMemoryCarveout, percent; unset: the
  /// default preference.
  std::optional<unsigned> CarveoutPercent;
  /// The grid, in blocks; unset: the model assumes one full wave.
  std::optional<Dim3> Grid;
  /// The kernel's argument values by parameter, where known (`--launch`'s
  /// ARGS): what a trip count or an address reads of them. Any other
  /// parameter's value is made up (paramValue).
  std::vector<std::optional<int64_t>> Args;
  /// A tune space's problem size: where Args is empty, the kernel's
  /// integer parameters take these values in order (integerArguments).
  std::vector<int64_t> ProblemSize;
};

/// What the compiled kernel needs of an SM.
struct KernelFootprint {
  unsigned Registers = 0;
  uint64_t StaticSharedBytes = 0;
  unsigned Barriers = 0;
  /// From __launch_bounds__ (or __maxnreg__'s companion .maxntid).
  std::optional<unsigned> MaxThreadsPerBlock;
};

enum class Limiter {
  Warps,
  Blocks,
  Registers,
  SharedMemory,
  Barriers,
  CannotLaunch
};

/// Why a block cannot be placed at all.
enum class LaunchFailure {
  None,
  BlockSize,      // more threads than any block may have
  LaunchBounds,   // more threads than __launch_bounds__ allows
  RegisterFile,   // the block's registers exceed the register file
  SharedPerBlock, // over the per-block shared-memory limit
};

struct Occupancy {
  unsigned BlocksPerSM = 0;
  unsigned WarpsPerBlock = 0;
  /// Resident warps over the SM's maximum, 0 to 1.
  double Fraction = 0;
  Limiter Limit = Limiter::CannotLaunch;
  LaunchFailure Failure = LaunchFailure::None;
  /// The limit each resource alone sets, blocks per SM.
  unsigned ByWarps = 0, ByBlocks = 0, ByRegisters = 0, BySharedMemory = 0,
           ByBarriers = 0;
  /// Registers one block is allocated.
  unsigned RegistersPerBlock = 0;
  /// Shared memory one block is allocated, the driver's reserve included.
  uint64_t SharedPerBlock = 0;
  /// The per-block shared-memory limit that applied, reserve included.
  uint64_t SharedLimitPerBlock = 0;
  /// The shared-memory carve-out the SM is configured with.
  uint64_t SharedPerSM = 0;
};

/// Occupancy in whole percent, rounded half up, as printed.
inline long occupancyPercent(const Occupancy &O) {
  return std::lround(O.Fraction * 100);
}

/// "registers", "shared_memory", "warps", "blocks", "barriers",
/// "cannot_launch": the JSON spelling.
llvm::StringRef limiterName(Limiter L);

Occupancy computeOccupancy(const ArchLimits &Limits, const KernelFootprint &K,
                           const LaunchConfig &Launch);

/// The carve-out (bytes) that \p Bytes of shared memory an SM is asked for
/// is rounded up to; 0 if none is that large.
uint64_t carveoutFor(const ArchLimits &L, uint64_t Bytes);

} // namespace metacu::report

#endif
