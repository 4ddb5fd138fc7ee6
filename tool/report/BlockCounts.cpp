//===- BlockCounts.cpp ----------------------------------------------------===//
#include "report/BlockCounts.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
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

// Whether a warp's access at Addresses is a broadcast: all 32 lanes
// active and on one address, as scripts/gpu/l1_loads.cu measured it (a
// warp partly active or partly sharing words was not measured).
static bool isBroadcast(llvm::ArrayRef<std::optional<uint64_t>> Addresses) {
  return Addresses.size() == WarpSize &&
         llvm::all_of(Addresses, [&](const std::optional<uint64_t> &A) {
           return A && *A == *Addresses.front();
         });
}

// A sector and how many times a block loads it (its loop's passes).
struct Sector {
  uint64_t Index;
  double Times;
};

// The 32-byte sectors that the known global loads of the block at Place
// touch, sorted and distinct, and the bytes they load. A load in a loop
// loads its bytes once per pass (Passes) and its first pass's sectors
// once per pass that finds them new (LoadPasses, newShares).
static std::vector<Sector> loadSectors(const KernelCounts &C, Dim3 Block,
                                       const BlockPlace &Place,
                                       llvm::ArrayRef<double> Passes,
                                       llvm::ArrayRef<double> LoadPasses,
                                       double &Bytes) {
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  std::vector<Sector> Sectors;
  llvm::SmallVector<uint64_t, 64> Values, Touched;
  Bytes = 0;
  for (unsigned Linear = 0; Linear < Block.count(); ++Linear) {
    C.Values.evaluate(threadAt(Linear, Block).data(), Size, Values, Place);
    for (const KnownAccess &A : C.GlobalLoadAccesses)
      if (ThreadValues::holds(A.Guard, Values)) {
        Touched.clear();
        touched(Values[A.Address] + A.Offset, A.Bytes, 32, Touched);
        for (uint64_t T : Touched)
          Sectors.push_back({T, A.Loop ? LoadPasses[*A.Loop] : 1});
        Bytes += A.Bytes * (A.Loop ? Passes[*A.Loop] : 1);
      }
  }
  llvm::sort(Sectors, [](const Sector &X, const Sector &Y) {
    return X.Index != Y.Index ? X.Index < Y.Index : X.Times > Y.Times;
  });
  Sectors.erase(
      llvm::unique(Sectors, [](const Sector &X,
                               const Sector &Y) { return X.Index == Y.Index; }),
      Sectors.end());
  return Sectors;
}

// How much of what a block in the middle of Grid loads its neighbours that
// started before it (the blocks one step away in each dimension with a
// lower linear index: the one before it in x, and the rows before it) load
// too, while their data can still be in L2 (no more than half of it loaded
// since by the blocks between them).
static void countReuse(const KernelCounts &C, Dim3 Block,
                       const BlockPlace &Middle, uint64_t L2Bytes,
                       llvm::ArrayRef<double> Passes,
                       llvm::ArrayRef<double> LoadPasses, BlockCounts &B) {
  // Up to 14 blocks are evaluated thread by thread: a kernel so large that
  // this would take seconds is taken to reuse nothing.
  if (double(Block.count()) * (C.Values.size() + C.GlobalLoadAccesses.size()) >
      double(1 << 26))
    return;
  const unsigned *GridSize = Middle.Grid;
  auto Linear = [&](const unsigned Index[3]) {
    return Index[0] + uint64_t(Index[1]) * GridSize[0] +
           uint64_t(Index[2]) * GridSize[0] * GridSize[1];
  };
  std::vector<Sector> Own =
      loadSectors(C, Block, Middle, Passes, LoadPasses, B.KnownLoadBytes);
  for (const Sector &S : Own)
    B.LoadSectors += S.Times;
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
                         32.0 * B.LoadSectors;
        if (Between > L2Bytes / 2.0)
          continue;
        double Unused;
        std::vector<Sector> Theirs =
            loadSectors(C, Block, Near, Passes, LoadPasses, Unused);
        for (size_t I = 0; I < Own.size(); ++I)
          Reused[I] |= std::binary_search(Theirs.begin(), Theirs.end(), Own[I],
                                          [](const Sector &X, const Sector &Y) {
                                            return X.Index < Y.Index;
                                          });
      }
  for (size_t I = 0; I < Own.size(); ++I)
    if (Reused[I])
      B.ReusedSectors += Own[I].Times;
}

// The distinct sectors that the known accesses As of the block at Place
// touch in a loop's first pass.
static std::vector<uint64_t> accessSectors(const KernelCounts &C, Dim3 Block,
                                           const BlockPlace &Place,
                                           llvm::ArrayRef<KnownAccess> As) {
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  std::vector<uint64_t> Sectors;
  llvm::SmallVector<uint64_t, 64> Values, Touched;
  for (unsigned Linear = 0; Linear < Block.count(); ++Linear) {
    C.Values.evaluate(threadAt(Linear, Block).data(), Size, Values, Place);
    for (const KnownAccess &A : As)
      if (ThreadValues::holds(A.Guard, Values)) {
        Touched.clear();
        touched(Values[A.Address] + A.Offset, A.Bytes, 32, Touched);
        Sectors.insert(Sectors.end(), Touched.begin(), Touched.end());
      }
  }
  llvm::sort(Sectors);
  Sectors.erase(llvm::unique(Sectors), Sectors.end());
  return Sectors;
}

// BlockCounts::RunSectors and RunEnds of the block at Middle: its runs of
// consecutive sectors, loads and stores apart, and their ends that the
// blocks the GPU starts just before and after it do not continue. DRAM
// pays for each run it sees begin and end (a row opened, docs/report.md,
// "Kernels the model was not built around"); the blocks beside it in the
// launch's order run at the same time, so a run they continue is one
// stream.
static void countRuns(const KernelCounts &C, Dim3 Block,
                      const BlockPlace &Middle, BlockCounts &B) {
  // As countReuse: too large a kernel to evaluate is taken to run long.
  if (double(Block.count()) * (C.Values.size() + C.GlobalLoadAccesses.size() +
                               C.GlobalStoreAccesses.size()) >
      double(1 << 26))
    return;
  const uint64_t Count =
      uint64_t(Middle.Grid[0]) * Middle.Grid[1] * Middle.Grid[2];
  uint64_t Linear = Middle.Index[0] +
                    uint64_t(Middle.Index[1]) * Middle.Grid[0] +
                    uint64_t(Middle.Index[2]) * Middle.Grid[0] * Middle.Grid[1];
  llvm::SmallVector<BlockPlace, 2> Beside;
  for (int64_t Step : {-1, 1}) {
    if ((Step < 0 && Linear == 0) || (Step > 0 && Linear + 1 >= Count))
      continue;
    uint64_t L = Linear + Step;
    BlockPlace P = Middle;
    P.Index[0] = unsigned(L % Middle.Grid[0]);
    P.Index[1] = unsigned(L / Middle.Grid[0] % Middle.Grid[1]);
    P.Index[2] = unsigned(L / (uint64_t(Middle.Grid[0]) * Middle.Grid[1]));
    Beside.push_back(P);
  }
  for (unsigned Stores = 0; Stores < 2; ++Stores) {
    llvm::ArrayRef<KnownAccess> As =
        Stores ? C.GlobalStoreAccesses : C.GlobalLoadAccesses;
    if (As.empty())
      continue;
    std::vector<uint64_t> Own = accessSectors(C, Block, Middle, As);
    std::vector<uint64_t> Theirs;
    for (const BlockPlace &P : Beside) {
      std::vector<uint64_t> S = accessSectors(C, Block, P, As);
      Theirs.insert(Theirs.end(), S.begin(), S.end());
    }
    llvm::sort(Theirs);
    auto Continued = [&](uint64_t Sector) {
      return std::binary_search(Theirs.begin(), Theirs.end(), Sector);
    };
    B.RunSectors[Stores] = Own.size();
    for (size_t I = 0; I < Own.size(); ++I) {
      bool Starts = I == 0 || Own[I - 1] + 1 != Own[I];
      bool Ends = I + 1 == Own.size() || Own[I] + 1 != Own[I + 1];
      if (Starts && (Own[I] == 0 || !Continued(Own[I] - 1)))
        ++B.RunEnds[Stores];
      if (Ends && !Continued(Own[I] + 1))
        ++B.RunEnds[Stores];
    }
  }
}

// Per loop, the share of the sectors that its known global loads touch in
// a pass which the pass before did not touch, in the block at Place: the
// second pass's addresses are the first's with each induction one step on.
// A sliding window (a stencil marching in z keeps two of its three planes)
// finds most of them loaded; a k-step or a grid stride finds none. 1 where
// the loop has no such loads or steps nothing.
static std::vector<double> newShares(const KernelCounts &C, Dim3 Block,
                                     const BlockPlace &Place) {
  std::vector<double> Share(C.Loops.size(), 1);
  // As countReuse: too large a kernel to evaluate is taken to reuse nothing.
  if (double(Block.count()) * (C.Values.size() + C.GlobalLoadAccesses.size()) >
      double(1 << 26))
    return Share;
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  llvm::SmallVector<uint64_t, 64> Values, Next;
  for (size_t L = 0; L < C.Loops.size(); ++L) {
    if (C.Loops[L].Inductions.empty() ||
        llvm::none_of(C.GlobalLoadAccesses,
                      [&](const KnownAccess &A) { return A.Loop == L; }))
      continue;
    llvm::SmallVector<uint64_t, 0> Before, After;
    llvm::SmallVector<std::pair<unsigned, uint64_t>, 4> Shift;
    for (unsigned Linear = 0; Linear < Block.count(); ++Linear) {
      std::array<unsigned, 3> T = threadAt(Linear, Block);
      C.Values.evaluate(T.data(), Size, Values, Place);
      Shift.clear();
      for (auto [Init, Step] : C.Loops[L].Inductions)
        Shift.push_back({Init, Values[Step]});
      C.Values.evaluate(T.data(), Size, Next, Place, Shift);
      for (const KnownAccess &A : C.GlobalLoadAccesses) {
        if (A.Loop != L)
          continue;
        if (ThreadValues::holds(A.Guard, Values))
          touched(Values[A.Address] + A.Offset, A.Bytes, 32, Before);
        if (ThreadValues::holds(A.Guard, Next))
          touched(Next[A.Address] + A.Offset, A.Bytes, 32, After);
      }
    }
    llvm::sort(Before);
    llvm::sort(After);
    After.erase(llvm::unique(After), After.end());
    if (After.empty())
      continue;
    double New = llvm::count_if(After, [&](uint64_t S) {
      return !std::binary_search(Before.begin(), Before.end(), S);
    });
    Share[L] = New / After.size();
  }
  return Share;
}

// For a loop nested in another, what its passes find in the outer loop's
// pass after the first, in the block at Place: the share of the sectors its
// known global loads touch over all its passes that they did not touch in
// the outer pass before, and the share of its passes that find any sector
// not touched before them, which wait for DRAM; the others find all they
// load in L1. An inner loop walking the same rows again for each outer pass
// (batched_mm's j loop reading all of B again for each of a thread's
// outputs) finds them there.
struct OuterShare {
  double Sectors, Rounds;
};

// None where the loop is not nested, steps nothing, loads nothing known, or
// would take too long to walk (more than MaxPasses passes).
static std::vector<std::optional<OuterShare>>
outerShares(const KernelCounts &C, Dim3 Block, const BlockPlace &Place,
            llvm::ArrayRef<std::optional<double>> Trips) {
  constexpr double MaxPasses = 256;
  std::vector<std::optional<OuterShare>> Share(C.Loops.size());
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  llvm::SmallVector<uint64_t, 64> Values, Shifted;
  for (size_t L = 0; L < C.Loops.size(); ++L) {
    const Loop &In = C.Loops[L];
    if (!In.Parent || !Trips[L] || *Trips[L] > MaxPasses ||
        In.Inductions.empty() || C.Loops[*In.Parent].Inductions.empty() ||
        llvm::none_of(C.GlobalLoadAccesses,
                      [&](const KnownAccess &A) { return A.Loop == L; }))
      continue;
    unsigned Passes = std::max(1u, unsigned(std::lround(*Trips[L])));
    if (double(Block.count()) * 2 * Passes *
            (C.Values.size() + C.GlobalLoadAccesses.size()) >
        double(1 << 28))
      continue;
    // The outer pass before's sectors, and each inner pass's of the next.
    llvm::SmallVector<uint64_t, 0> Before;
    std::vector<llvm::SmallVector<uint64_t, 0>> After(Passes);
    llvm::SmallVector<std::pair<unsigned, uint64_t>, 4> Shift;
    for (unsigned Linear = 0; Linear < Block.count(); ++Linear) {
      std::array<unsigned, 3> T = threadAt(Linear, Block);
      C.Values.evaluate(T.data(), Size, Values, Place);
      for (unsigned Outer : {0u, 1u})
        for (unsigned Pass = 0; Pass < Passes; ++Pass) {
          Shift.clear();
          for (auto [Init, Step] : In.Inductions)
            Shift.push_back({Init, Values[Step] * Pass});
          for (auto [Init, Step] : C.Loops[*In.Parent].Inductions)
            Shift.push_back({Init, Values[Step] * Outer});
          C.Values.evaluate(T.data(), Size, Shifted, Place, Shift);
          for (const KnownAccess &A : C.GlobalLoadAccesses)
            if (A.Loop == L && ThreadValues::holds(A.Guard, Shifted))
              touched(Shifted[A.Address] + A.Offset, A.Bytes, 32,
                      Outer ? After[Pass] : Before);
        }
    }
    const llvm::DenseSet<uint64_t> Earlier(Before.begin(), Before.end());
    llvm::DenseSet<uint64_t> Seen = Earlier, All;
    unsigned Waiting = 0;
    for (const auto &P : After) {
      All.insert(P.begin(), P.end());
      bool Finds = false;
      for (uint64_t S : P)
        Finds |= Seen.insert(S).second;
      Waiting += Finds;
    }
    if (All.empty())
      continue;
    double New =
        llvm::count_if(All, [&](uint64_t S) { return !Earlier.contains(S); });
    Share[L] = OuterShare{New / All.size(), double(Waiting) / Passes};
  }
  return Share;
}

// BlockCounts::RereadSectors, RereadDistance and SectorLoads of the block
// at Place. Its known loads go by context: each loop (its innermost) and
// the code outside loops, whose first pass touches distinct sectors S a
// pass, S times its passes in all (Passes). Within a loop a pass finds the
// share 1 - Share of what the pass before loaded (newShares), S sectors
// before; a nested loop's outer pass finds the share 1 - Outer.Sectors of
// what the outer pass before did (outerShares), the inner loop's passes
// before. A sector that several contexts load is loaded anew by the ones
// after the first, the mean of their loads apart (each counts it Fresh
// times: LoadPasses). Returns, per loop, the share of its first pass's
// sectors that a loop before it (a lower index) loaded.
static std::vector<double>
countRereads(const KernelCounts &C, Dim3 Block, const BlockPlace &Place,
             llvm::ArrayRef<double> Passes, llvm::ArrayRef<double> Share,
             llvm::ArrayRef<double> Fresh,
             llvm::ArrayRef<std::optional<OuterShare>> Outer,
             llvm::ArrayRef<std::optional<double>> Trips, BlockCounts &B) {
  const size_t Straight = C.Loops.size();
  std::vector<double> Reloaded(Straight, 0);
  // As countReuse: too large a kernel to evaluate is taken to reread
  // nothing.
  if (double(Block.count()) * (C.Values.size() + C.GlobalLoadAccesses.size()) >
      double(1 << 26))
    return Reloaded;
  auto PassesOf = [&](size_t Ctx) { return Ctx < Straight ? Passes[Ctx] : 1; };
  auto FreshOf = [&](size_t Ctx) { return Ctx < Straight ? Fresh[Ctx] : 1; };
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  std::vector<llvm::SmallVector<uint64_t, 0>> First(Straight + 1);
  llvm::SmallVector<uint64_t, 64> Values;
  for (unsigned Linear = 0; Linear < Block.count(); ++Linear) {
    C.Values.evaluate(threadAt(Linear, Block).data(), Size, Values, Place);
    for (const KnownAccess &A : C.GlobalLoadAccesses)
      if (ThreadValues::holds(A.Guard, Values))
        touched(Values[A.Address] + A.Offset, A.Bytes, 32,
                First[A.Loop.value_or(Straight)]);
  }
  std::vector<std::pair<uint64_t, size_t>> ByContext;
  std::vector<double> Loads(Straight + 1, 0);
  for (size_t Ctx = 0; Ctx <= Straight; ++Ctx) {
    llvm::sort(First[Ctx]);
    First[Ctx].erase(llvm::unique(First[Ctx]), First[Ctx].end());
    Loads[Ctx] = First[Ctx].size() * PassesOf(Ctx);
    B.SectorLoads += Loads[Ctx];
    for (uint64_t S : First[Ctx])
      ByContext.push_back({S, Ctx});
  }
  double Weighted = 0;
  auto Add = [&](double Sectors, double Distance) {
    B.RereadSectors += Sectors;
    Weighted += Sectors * Distance;
  };
  for (size_t L = 0; L < Straight; ++L) {
    double S = First[L].size();
    if (S == 0)
      continue;
    if (Outer[L]) {
      double T = *Trips[L], Around = Passes[*C.Loops[L].Parent];
      Add(S * (T - 1) * (1 - Share[L]) * Around, S);
      Add(S * (1 + (T - 1) * Share[L]) * (Around - 1) * (1 - Outer[L]->Sectors),
          S * T);
    } else {
      Add(S * (Passes[L] - 1) * (1 - Share[L]), S);
    }
  }
  llvm::sort(ByContext);
  for (auto It = ByContext.begin(); It != ByContext.end();) {
    auto End = std::find_if(It, ByContext.end(), [&](const auto &P) {
      return P.first != It->first;
    });
    double Sum = 0, Most = 0, Apart = 0;
    for (auto P = It; P != End; ++P) {
      Sum += FreshOf(P->second);
      Most = std::max(Most, FreshOf(P->second));
      Apart += Loads[P->second];
    }
    if (End - It > 1)
      Add(Sum - Most, Apart / double(End - It));
    // Sorted by context: those after the first are loops after a loop that
    // loaded it.
    if (It->second < Straight)
      for (auto P = std::next(It); P != End; ++P)
        if (P->second < Straight)
          Reloaded[P->second] += 1 / double(First[P->second].size());
    It = End;
  }
  if (B.RereadSectors > 0)
    B.RereadDistance = Weighted / B.RereadSectors;
  return Reloaded;
}

// Where the known global atomics of the block at Place go: the requests
// L2 gets for each 128-byte line (a warp's atomic is one request a line
// its active lanes touch) and the updates of each address (one a lane),
// once a pass of the atomic's loop (the passes each lane makes by its trip
// count; one pass where the count is not known or over MaxPasses), times
// the passes of the loops around it. A pass's address is the first's with
// the address's own register a step on where the loop steps it (nvcc's
// pointer stepped beside the index it was made from: stepping both would
// count the step twice), else with every stepped register a step on.
// (Ordered maps: an address may take any 64-bit value, which DenseMap
// reserves two of.)
struct AtomicTargets {
  std::map<uint64_t, double> LineRequests, AddressUpdates;
};

static AtomicTargets atomicTargets(const KernelCounts &C, Dim3 Block,
                                   const BlockPlace &Place,
                                   llvm::ArrayRef<double> Passes) {
  constexpr uint64_t MaxPasses = 256;
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  const unsigned Warps = (Block.count() + WarpSize - 1) / WarpSize;
  AtomicTargets T;
  llvm::SmallVector<uint64_t, 64> Values, Shifted;
  llvm::SmallVector<std::pair<unsigned, uint64_t>, 4> Shift;
  std::vector<llvm::SmallVector<uint64_t, 4>> Lines;
  for (const KnownAccess &A : C.GlobalAtomicAccesses) {
    const Loop *In = A.Loop ? &C.Loops[*A.Loop] : nullptr;
    double Around = In && In->Parent ? Passes[*In->Parent] : 1;
    for (unsigned W = 0; W < Warps; ++W) {
      Lines.clear();
      for (unsigned Linear = W * WarpSize;
           Linear < std::min<uint64_t>(Block.count(), (W + 1) * WarpSize);
           ++Linear) {
        std::array<unsigned, 3> Thread = threadAt(Linear, Block);
        C.Values.evaluate(Thread.data(), Size, Values, Place);
        uint64_t Trips = 1;
        if (In && In->Trip)
          if (std::optional<uint64_t> N = tripCount(*In->Trip, Values);
              N && *N <= MaxPasses)
            Trips = *N;
        if (Lines.size() < Trips)
          Lines.resize(Trips);
        // Where the guard holds in the first pass, it is taken to hold
        // in every pass the lane makes.
        if (!ThreadValues::holds(A.Guard, Values))
          continue;
        for (uint64_t Pass = 0; Pass < Trips; ++Pass) {
          Shift.clear();
          if (Pass > 0) {
            for (auto [Init, Step] : In->Inductions)
              if (Init == A.Address)
                Shift.assign({{Init, Values[Step] * Pass}});
            // An address the body computes from the stepped registers:
            // each of them a step on.
            if (Shift.empty())
              for (auto [Init, Step] : In->Inductions)
                Shift.push_back({Init, Values[Step] * Pass});
            C.Values.evaluate(Thread.data(), Size, Shifted, Place, Shift);
          }
          const auto &V = Pass > 0 ? Shifted : Values;
          uint64_t Address = V[A.Address] + A.Offset;
          T.AddressUpdates[Address] += Around;
          touched(Address, A.Bytes, 128, Lines[Pass]);
        }
      }
      for (auto &Pass : Lines) {
        llvm::sort(Pass);
        Pass.erase(llvm::unique(Pass), Pass.end());
        for (uint64_t Line : Pass)
          T.LineRequests[Line] += Around;
      }
    }
  }
  return T;
}

// BlockCounts' atomic figures of the block at Middle: where the first
// block of the grid sends the same lines as many requests and the same
// addresses as many updates, so does every block.
static void countAtomics(const KernelCounts &C, Dim3 Block,
                         const BlockPlace &Middle,
                         llvm::ArrayRef<double> Passes, BlockCounts &B) {
  // As countReuse: too large a kernel to evaluate (each pass of an
  // atomic's loop evaluates every thread again) is taken to share none.
  double Evaluations = 1;
  for (const KnownAccess &A : C.GlobalAtomicAccesses)
    if (A.Loop)
      Evaluations += std::min(Passes[*A.Loop], 256.0);
  if (double(Block.count()) * Evaluations *
          (C.Values.size() + C.GlobalAtomicAccesses.size()) >
      double(1 << 28))
    return;
  BlockPlace First = Middle;
  First.Index[0] = First.Index[1] = First.Index[2] = 0;
  AtomicTargets Own = atomicTargets(C, Block, Middle, Passes),
                Theirs = atomicTargets(C, Block, First, Passes);
  if (Own.LineRequests != Theirs.LineRequests ||
      Own.AddressUpdates != Theirs.AddressUpdates)
    return;
  B.AtomicLines = Own.LineRequests.size();
  for (const auto &[Address, Updates] : Own.AddressUpdates) {
    B.AtomicUpdates += Updates;
    B.AtomicAddressUpdates = std::max(B.AtomicAddressUpdates, Updates);
  }
  for (const KnownAccess &A : C.GlobalAtomicAccesses) {
    B.AtomicsFloat |= A.Float;
    for (std::optional<unsigned> L = A.Loop; L; L = C.Loops[*L].Parent)
      if (C.Loops[*L].Body.GlobalLoads.Instructions)
        B.AtomicsAfterLoads = false;
  }
}

// Each loop's passes in a block at Place (BlockCounts::LoopTrips).
static std::vector<std::optional<double>>
loopTrips(const KernelCounts &C, Dim3 Block, const BlockPlace &Place) {
  std::vector<std::optional<double>> Trips(C.Loops.size());
  if (llvm::none_of(C.Loops, [](const Loop &L) { return L.Trip; }))
    return Trips;
  const unsigned Size[3] = {Block.X, Block.Y, Block.Z};
  unsigned Warps = (Block.count() + WarpSize - 1) / WarpSize;
  std::vector<double> Sum(C.Loops.size(), 0);
  std::vector<char> Known(C.Loops.size(), 1);
  llvm::SmallVector<uint64_t, 64> Values;
  for (unsigned W = 0; W < Warps; ++W) {
    std::vector<uint64_t> Most(C.Loops.size(), 0);
    for (unsigned Linear = W * WarpSize;
         Linear < std::min<uint64_t>(Block.count(), (W + 1) * WarpSize);
         ++Linear) {
      C.Values.evaluate(threadAt(Linear, Block).data(), Size, Values, Place);
      for (size_t L = 0; L < C.Loops.size(); ++L) {
        std::optional<uint64_t> N;
        if (C.Loops[L].Trip)
          N = tripCount(*C.Loops[L].Trip, Values);
        if (!N)
          Known[L] = 0;
        else
          Most[L] = std::max(Most[L], *N);
      }
    }
    for (size_t L = 0; L < C.Loops.size(); ++L)
      Sum[L] += Most[L];
  }
  for (size_t L = 0; L < C.Loops.size(); ++L)
    if (Known[L])
      Trips[L] = Sum[L] / Warps;
  return Trips;
}

BlockCounts blockCounts(const KernelCounts &C, Dim3 Block,
                        std::optional<Dim3> Grid, uint64_t L2Bytes,
                        llvm::ArrayRef<std::optional<int64_t>> Args) {
  BlockCounts B;
  B.Threads = Block.count();
  B.Warps = (B.Threads + WarpSize - 1) / WarpSize;
  add(B, C, B.Threads, B.Warps);
  B.LongestWarp = C.Instructions;
  // The code outside loops waits for its rounds in a row; a loop that
  // loads in more passes sets them instead (below).
  B.LoadRounds = C.LoadRounds;
  if (B.Threads == 0)
    return B;
  // A block in the grid's middle, as for the reuse between blocks (a trip
  // count may read the launch).
  BlockPlace Middle;
  Middle.Args = Args;
  if (Grid)
    for (unsigned D = 0; D < 3; ++D) {
      const unsigned Extent[3] = {Grid->X, Grid->Y, Grid->Z};
      Middle.Grid[D] = std::max(Extent[D], 1u);
      Middle.Index[D] = Extent[D] / 2;
    }
  B.LoopTrips = loopTrips(C, Block, Middle);
  // Each loop's passes, times those of the loops it is in (inner loops come
  // first, so outer ones are worked out first from the end).
  std::vector<double> Passes(C.Loops.size(), 1);
  for (size_t L = C.Loops.size(); L-- > 0;)
    Passes[L] = B.LoopTrips[L].value_or(1 / C.Loops[L].Lanes) *
                (C.Loops[L].Parent ? Passes[*C.Loops[L].Parent] : 1);
  std::vector<std::optional<OuterShare>> Outer(C.Loops.size());
  std::vector<double> Reloaded(C.Loops.size(), 0);
  // Reuse needs the launch's grid (which blocks share what) and loads whose
  // addresses are known.
  const bool LaunchKnown = Grid && Grid->count() > 0;
  if (LaunchKnown && !C.GlobalLoadAccesses.empty()) {
    Outer = outerShares(C, Block, Middle, B.LoopTrips);
    // A pass's loads that the pass before loaded come from L1 or L2.
    const std::vector<double> Share = newShares(C, Block, Middle);
    std::vector<double> LoadPasses = Share;
    for (size_t L = 0; L < C.Loops.size(); ++L) {
      // A nested loop's passes within one outer pass find what the pass
      // before loaded; those of the outer loop's later passes what the
      // outer pass before did (outerShares).
      if (Outer[L]) {
        double Around = Passes[*C.Loops[L].Parent];
        LoadPasses[L] = (1 + (*B.LoopTrips[L] - 1) * LoadPasses[L]) *
                        (1 + (Around - 1) * Outer[L]->Sectors);
      } else {
        LoadPasses[L] = 1 + (Passes[L] - 1) * LoadPasses[L];
      }
    }
    countReuse(C, Block, Middle, L2Bytes, Passes, LoadPasses, B);
    Reloaded = countRereads(C, Block, Middle, Passes, Share, LoadPasses, Outer,
                            B.LoopTrips, B);
  }
  if (LaunchKnown)
    countRuns(C, Block, Middle, B);
  if (LaunchKnown && !C.GlobalAtomicAccesses.empty())
    countAtomics(C, Block, Middle, Passes, B);
  // A nested loop's passes in the outer loop's later passes wait for DRAM
  // only where they find a sector new; the others find theirs in L1.
  for (size_t L = 0; L < C.Loops.size(); ++L) {
    double Rounds = Passes[L];
    if (Outer[L])
      Rounds = *B.LoopTrips[L] *
               (1 + (Passes[*C.Loops[L].Parent] - 1) * Outer[L]->Rounds);
    if (!C.Loops[L].Body.GlobalLoads.Instructions)
      continue;
    // A loop walking again what a loop before it loaded waits after it,
    // where L1 no longer holds it (Model).
    B.RereadRounds += Rounds * Reloaded[L];
    Rounds *= 1 - Reloaded[L];
    if (Rounds > B.LoadRounds) {
      B.LoadRounds = Rounds;
      B.LoadRoundsStore = C.Loops[L].Body.GlobalStores.Instructions > 0;
      B.LoadRoundsApart =
          C.Loops[L].GridStride && C.Loops[L].Body.Barriers == 0;
    }
  }
  // A body counted once already runs Passes times: the rest, less what
  // the loop it is in adds for it.
  double Extra = 0;
  for (size_t L = 0; L < C.Loops.size(); ++L) {
    double More =
        Passes[L] - (C.Loops[L].Parent ? Passes[*C.Loops[L].Parent] : 1);
    add(B, C.Loops[L].Body, B.Threads * More, B.Warps * More);
    Extra += C.Loops[L].Body.Instructions * More;
  }
  B.LongestWarp += Extra;
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
    for (size_t A = 0; A < C.SharedAccesses.size(); ++A) {
      const KnownAccess &S = C.SharedAccesses[A];
      double Times = S.Loop ? Passes[*S.Loop] : 1;
      B.SharedConflictPasses += conflictPasses(Lanes[A], S.Bytes) * Times;
      if (S.Load && isBroadcast(Lanes[A])) {
        B.SharedBroadcasts.WarpInstructions += Times;
        B.SharedBroadcasts.Bytes += double(WarpSize) * S.Bytes * Times;
      }
    }
  }

  // Take back what the threads and warps that skip each part do not run.
  llvm::SmallVector<double> WarpInstructions(B.Warps, C.Instructions + Extra);
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
