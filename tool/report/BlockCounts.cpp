//===- BlockCounts.cpp ----------------------------------------------------===//
#include "report/BlockCounts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <array>
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

// The thread at Linear, the index of its block's threads in x, then y, then
// z order (as warps take them), as (x, y, z).
static std::array<unsigned, 3> threadAt(unsigned Linear, Dim3 Block) {
  return {Linear % Block.X, Linear / Block.X % Block.Y,
          Linear / (Block.X * Block.Y)};
}

// Appends the Unit-byte units (banks' words, sectors) that Bytes bytes at
// First touch.
static void touched(uint64_t First, unsigned Bytes, unsigned Unit,
                    llvm::SmallVectorImpl<uint64_t> &Out) {
  uint64_t Last = First + std::max(Bytes, 1u) - 1;
  for (uint64_t U = First / Unit; U <= Last / Unit; ++U)
    Out.push_back(U);
}

// Passes over the 32 banks that one warp's access of Bytes a lane takes at
// Addresses (those of its active lanes, by lane; none: inactive), beyond
// the conflict-free ones. Shared memory serves 128 bytes a pass, so lanes
// go in groups of 128 / Bytes (a whole warp for 4 bytes or fewer); in a
// group, each bank delivers one 4-byte word a pass, lanes reading one word
// share it, and the bank with the most distinct words sets the passes.
static unsigned
conflictPasses(llvm::ArrayRef<std::optional<uint64_t>> Addresses,
               unsigned Bytes) {
  unsigned Group = Bytes <= 4 ? WarpSize : std::max(1u, 128 / Bytes);
  unsigned Extra = 0;
  for (size_t First = 0; First < Addresses.size(); First += Group) {
    llvm::SmallVector<uint64_t, 64> Words;
    for (size_t Lane = First;
         Lane < std::min<size_t>(First + Group, Addresses.size()); ++Lane)
      if (Addresses[Lane])
        touched(*Addresses[Lane], Bytes, 4, Words);
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

// The 32-byte sectors that the known global loads of the block at Place
// touch, sorted and distinct, and the bytes they load.
static llvm::SmallVector<uint64_t, 0> loadSectors(const KernelCounts &C,
                                                  Dim3 Block,
                                                  const BlockPlace &Place,
                                                  double &Bytes) {
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  llvm::SmallVector<uint64_t, 0> Sectors;
  llvm::SmallVector<uint64_t, 64> Values;
  Bytes = 0;
  for (unsigned Linear = 0; Linear < Block.count(); ++Linear) {
    C.Values.evaluate(threadAt(Linear, Block).data(), Size, Values, Place);
    for (const KnownAccess &A : C.GlobalLoadAccesses)
      if (ThreadValues::holds(A.Guard, Values)) {
        touched(Values[A.Address] + A.Offset, A.Bytes, 32, Sectors);
        Bytes += A.Bytes;
      }
  }
  llvm::sort(Sectors);
  Sectors.erase(llvm::unique(Sectors), Sectors.end());
  return Sectors;
}

// How much of what a block in the middle of Grid loads its neighbours that
// started before it (the blocks one step away in each dimension with a
// lower linear index: the one before it in x, and the rows before it) load
// too, while their data can still be in L2 (no more than half of it loaded
// since by the blocks between them).
static void countReuse(const KernelCounts &C, Dim3 Block, Dim3 Grid,
                       uint64_t L2Bytes, BlockCounts &B) {
  // Up to 14 blocks are evaluated thread by thread: a kernel so large that
  // this would take seconds is taken to reuse nothing.
  if (double(Block.count()) * (C.Values.size() + C.GlobalLoadAccesses.size()) >
      double(1 << 26))
    return;
  const unsigned GridSize[3] = {Grid.X, Grid.Y, Grid.Z};
  BlockPlace Middle;
  for (unsigned D = 0; D < 3; ++D) {
    Middle.Grid[D] = GridSize[D];
    Middle.Index[D] = GridSize[D] / 2;
  }
  auto Linear = [&](const unsigned Index[3]) {
    return Index[0] + uint64_t(Index[1]) * Grid.X +
           uint64_t(Index[2]) * Grid.X * Grid.Y;
  };
  llvm::SmallVector<uint64_t, 0> Own =
      loadSectors(C, Block, Middle, B.KnownLoadBytes);
  B.LoadSectors = Own.size();
  if (Own.empty())
    return;
  std::vector<char> Reused(Own.size(), 0);
  for (int DZ = -1; DZ <= 1; ++DZ)
    for (int DY = -1; DY <= 1; ++DY)
      for (int DX = -1; DX <= 1; ++DX) {
        BlockPlace Near = Middle;
        const int Step[3] = {DX, DY, DZ};
        bool Inside = true;
        for (unsigned D = 0; D < 3; ++D) {
          int64_t I = int64_t(Middle.Index[D]) + Step[D];
          Inside &= I >= 0 && I < int64_t(GridSize[D]);
          Near.Index[D] = unsigned(I);
        }
        if (!Inside || Linear(Near.Index) >= Linear(Middle.Index))
          continue;
        double Between = double(Linear(Middle.Index) - Linear(Near.Index)) *
                         32.0 * Own.size();
        if (Between > L2Bytes / 2.0)
          continue;
        double Unused;
        llvm::SmallVector<uint64_t, 0> Theirs =
            loadSectors(C, Block, Near, Unused);
        for (size_t I = 0; I < Own.size(); ++I)
          Reused[I] |= llvm::binary_search(Theirs, Own[I]);
      }
  B.ReusedSectors = llvm::count(Reused, 1);
}

BlockCounts blockCounts(const KernelCounts &C, Dim3 Block,
                        std::optional<Dim3> Grid, uint64_t L2Bytes) {
  BlockCounts B;
  B.Threads = Block.count();
  B.Warps = (B.Threads + WarpSize - 1) / WarpSize;
  add(B, C, B.Threads, B.Warps);
  B.LongestWarp = C.Instructions;
  if (B.Threads == 0)
    return B;
  if (Grid && Grid->count() > 0 && !C.GlobalLoadAccesses.empty())
    countReuse(C, Block, *Grid, L2Bytes, B);
  if (C.Guarded.empty() && C.SharedAccesses.empty())
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
      C.Values.evaluate(threadAt(Linear, Block).data(), Size, Values);
      for (size_t G = 0; G < C.Guarded.size(); ++G)
        if (ThreadValues::holds(C.Guarded[G].Guard, Values)) {
          ++Running[G];
          WarpRuns[W * C.Guarded.size() + G] = 1;
        }
      for (size_t A = 0; A < C.SharedAccesses.size(); ++A) {
        const KnownAccess &S = C.SharedAccesses[A];
        Lanes[A].push_back(
            ThreadValues::holds(S.Guard, Values)
                ? std::optional<uint64_t>(Values[S.Address] + S.Offset)
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
