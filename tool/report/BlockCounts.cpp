//===- BlockCounts.cpp ----------------------------------------------------===//
#include "report/BlockCounts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

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

BlockCounts blockCounts(const KernelCounts &C, Dim3 Block) {
  BlockCounts B;
  B.Threads = Block.count();
  B.Warps = (B.Threads + WarpSize - 1) / WarpSize;
  add(B, C, B.Threads, B.Warps);
  B.LongestWarp = C.Instructions;
  if (C.Guarded.empty() || B.Threads == 0)
    return B;

  // Which threads run each guarded part, thread by thread.
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  llvm::SmallVector<unsigned> Running(C.Guarded.size(), 0);
  // Per warp and guarded part: whether any lane runs it.
  std::vector<char> WarpRuns(size_t(B.Warps) * C.Guarded.size(), 0);
  llvm::SmallVector<uint64_t, 64> Values;
  unsigned Linear = 0;
  for (unsigned Z = 0; Z < Block.Z; ++Z)
    for (unsigned Y = 0; Y < Block.Y; ++Y)
      for (unsigned X = 0; X < Block.X; ++X, ++Linear) {
        const unsigned Thread[3] = {X, Y, Z};
        C.Values.evaluate(Thread, Size, Values);
        for (size_t G = 0; G < C.Guarded.size(); ++G)
          if (ThreadValues::holds(C.Guarded[G].Guard, Values)) {
            ++Running[G];
            WarpRuns[Linear / WarpSize * C.Guarded.size() + G] = 1;
          }
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
