//===- BlockCounts.cpp ----------------------------------------------------===//
#include "report/BlockCounts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <optional>

namespace metacu::report {

static constexpr unsigned WarpSize = 32;

// Adds what Threads threads in Warps warps execute of A.
static void add(BlockAccess &To, const AccessCount &A, double Threads,
                double Warps) {
  To.WarpInstructions += A.Instructions * Warps;
  To.Bytes += A.Bytes * Threads;
}

// Adds Counts as executed by Threads threads in Warps warps (negative:
// takes them back).
static void add(BlockCounts &To, const OpCounts &Counts, double Threads,
                double Warps) {
  add(To.GlobalLoads, Counts.GlobalLoads, Threads, Warps);
  add(To.GlobalStores, Counts.GlobalStores, Threads, Warps);
  add(To.SharedLoads, Counts.SharedLoads, Threads, Warps);
  add(To.SharedStores, Counts.SharedStores, Threads, Warps);
  add(To.LocalAccesses, Counts.LocalAccesses, Threads, Warps);
  To.WarpInstructions += Counts.Instructions * Warps;
  for (unsigned T = 0; T < 3; ++T)
    To.FpWarpInstructions[T] += Counts.FpInstructions[T] * Warps;
}

// Passes over the 32 banks that one warp's access of Bytes a lane takes at
// Addresses (those of its active lanes, by lane; none: inactive), beyond
// the conflict-free ones. Shared memory serves 128 bytes a pass, so lanes
// go in groups of 128 / Bytes (a whole warp for 4 bytes or fewer); in a
// group, each bank delivers one 4-byte word a pass, lanes reading one word
// share it, and the bank with the most distinct words sets the passes.
static unsigned conflictPasses(
    llvm::ArrayRef<std::optional<uint64_t>> Addresses, unsigned Bytes) {
  unsigned Group = Bytes <= 4 ? WarpSize : std::max(1u, 128 / Bytes);
  unsigned Extra = 0;
  for (size_t First = 0; First < Addresses.size(); First += Group) {
    llvm::SmallVector<uint64_t, 64> Words;
    for (size_t Lane = First;
         Lane < std::min<size_t>(First + Group, Addresses.size()); ++Lane)
      if (Addresses[Lane])
        for (uint64_t W = *Addresses[Lane] / 4;
             W <= (*Addresses[Lane] + std::max(Bytes, 1u) - 1) / 4; ++W)
          Words.push_back(W);
    if (Words.empty())
      continue;
    llvm::sort(Words);
    Words.erase(llvm::unique(Words), Words.end());
    unsigned PerBank[WarpSize] = {};
    for (uint64_t W : Words)
      ++PerBank[W % WarpSize];
    Extra += *llvm::max_element(PerBank) - 1;
  }
  return Extra;
}

BlockCounts blockCounts(const KernelCounts &C, Dim3 Block) {
  BlockCounts B;
  B.Threads = Block.count();
  B.Warps = (B.Threads + WarpSize - 1) / WarpSize;
  add(B, C, B.Threads, B.Warps);
  B.LongestWarp = C.Instructions;
  if ((C.Guarded.empty() && C.SharedAccesses.empty()) || B.Threads == 0)
    return B;

  // Which threads run each guarded part, and where each known shared
  // access goes, warp by warp and lane by lane.
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  llvm::SmallVector<unsigned> Running(C.Guarded.size(), 0);
  // Per warp and guarded part: whether any lane runs it.
  std::vector<char> WarpRuns(size_t(B.Warps) * C.Guarded.size(), 0);
  // Per shared access: its address in each lane of the current warp.
  std::vector<llvm::SmallVector<std::optional<uint64_t>, WarpSize>> Lanes(
      C.SharedAccesses.size());
  llvm::SmallVector<uint64_t, 64> Values;
  for (unsigned W = 0; W < B.Warps; ++W) {
    for (auto &A : Lanes)
      A.clear();
    for (unsigned Linear = W * WarpSize;
         Linear < std::min(B.Threads, (W + 1) * WarpSize); ++Linear) {
      const unsigned Thread[3] = {Linear % Block.X, Linear / Block.X % Block.Y,
                                  Linear / (Block.X * Block.Y)};
      C.Values.evaluate(Thread, Size, Values);
      for (size_t G = 0; G < C.Guarded.size(); ++G)
        if (ThreadValues::holds(C.Guarded[G].Guard, Values)) {
          ++Running[G];
          WarpRuns[W * C.Guarded.size() + G] = 1;
        }
      for (size_t A = 0; A < C.SharedAccesses.size(); ++A) {
        const SharedAccess &S = C.SharedAccesses[A];
        Lanes[A].push_back(ThreadValues::holds(S.Guard, Values)
                               ? std::optional<uint64_t>(Values[S.Address] +
                                                         S.Offset)
                               : std::nullopt);
      }
    }
    for (size_t A = 0; A < C.SharedAccesses.size(); ++A)
      B.SharedConflictPasses +=
          conflictPasses(Lanes[A], C.SharedAccesses[A].Bytes);
  }

  // Take back what the threads and warps that skip each part do not run.
  llvm::SmallVector<double> WarpInstructions(B.Warps, C.Instructions);
  for (size_t G = 0; G < C.Guarded.size(); ++G) {
    const OpCounts &Part = C.Guarded[G].Counts;
    unsigned WarpsRunning = 0;
    for (unsigned W = 0; W < B.Warps; ++W) {
      if (WarpRuns[W * C.Guarded.size() + G])
        ++WarpsRunning;
      else
        WarpInstructions[W] -= Part.Instructions;
    }
    add(B, Part, -double(B.Threads - Running[G]),
        -double(B.Warps - WarpsRunning));
  }
  B.LongestWarp = *llvm::max_element(WarpInstructions);
  return B;
}

} // namespace metacu::report
