//===- BlockCounts.h - What a block of a launch executes ------------------===//
//
// PtxCounts counts what one thread's code holds; a block executes less of
// what only some of its threads run. Each instruction PtxCounts found under
// a condition on the thread's place (GuardedCounts) is evaluated for every
// thread of the launch's block: its bytes and operations count for the
// threads that run it, its issue for the warps with at least one such
// thread (a warp issues an instruction if any of its lanes is active).
// Thread 0's store of a block's sum thus moves 4 bytes a block, not 4 a
// thread, and costs one warp's issue. The shared accesses whose addresses
// PtxCounts knows are evaluated lane by lane for their bank conflicts, and
// with the launch's grid the global loads whose addresses it knows are
// compared, sector by sector, with those of the neighbouring blocks that
// started before (what L2 then serves). A loop's body counts once per
// pass: its trip count (PtxCounts' TripCount) is evaluated for every thread
// of a block in the grid's middle; a loop whose count the PTX does not give
// counts once, or once for the lanes that share its range (Loop::Lanes).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_BLOCKCOUNTS_H
#define METACU_REPORT_BLOCKCOUNTS_H

#include "report/Occupancy.h"
#include "report/PtxCounts.h"

namespace metacu::report {

struct BlockAccess {
  /// Warp instructions the block issues.
  double WarpInstructions = 0;
  /// Bytes its threads move.
  double Bytes = 0;
};

struct BlockCounts {
  unsigned Threads = 0, Warps = 0;
  BlockAccess GlobalLoads, GlobalStores, SharedLoads, SharedStores,
      LocalAccesses;
  /// Warp instructions issued, all of them and on the FP pipes by FpType.
  double WarpInstructions = 0;
  double FpWarpInstructions[3] = {};
  /// The most instructions one warp issues: the block's longest path.
  double LongestWarp = 0;
  /// Passes over shared memory's banks that the block's warps spend on
  /// bank conflicts, beyond the passes their accesses' widths take anyway
  /// (counted where PtxCounts knows the addresses: KnownAccess).
  double SharedConflictPasses = 0;
  /// Of the known shared loads, those of warps whose 32 lanes all read one
  /// address (a broadcast), which shared memory delivers faster
  /// (DeviceParams::SharedBroadcastBytesPerClock).
  BlockAccess SharedBroadcasts;
  /// The global loads whose addresses PtxCounts knows (KnownAccess), in a
  /// block in the middle of the grid: their bytes, the 32-byte sectors
  /// they touch, and how many of those sectors the block's neighbours that
  /// started before it loaded too, which L2 then serves (all 0 without a
  /// grid).
  double KnownLoadBytes = 0;
  double LoadSectors = 0, ReusedSectors = 0;
  /// Of the known loads in a block in the middle of the grid, the sectors
  /// it loads again after loading others in between: a pass finding what
  /// the pass before loaded, an outer pass what the outer pass before did,
  /// a loop what an earlier loop or the code outside loops loaded (a
  /// softmax's second and third walk over its row). L1 holds them only
  /// while what the SM brings in meanwhile leaves them there (Model). Their
  /// count, the mean of the sectors the block loads between a sector's load
  /// and its reread (a pass's sectors, an outer pass's, a whole loop's), and
  /// the sectors it loads in all, a pass's distinct sectors once a pass (0
  /// without a grid). Rereads within one pass, of threads loading a sector
  /// alike, come close together and are taken to find it.
  double RereadSectors = 0, RereadDistance = 0, SectorLoads = 0;
  /// DRAM's view of the known global loads ([0]) and stores ([1])
  /// (KnownAccess) of a block in the middle of the grid, a loop's first
  /// pass: the distinct sectors they touch and the ends of their runs of
  /// consecutive sectors that neither block started beside it (one before,
  /// one after it in the launch's order) continues. A tiled copy's rows run
  /// on into the next block's; a transpose writes rows of a tile's width
  /// that nothing else in flight continues (0 without a grid).
  double RunSectors[2] = {}, RunEnds[2] = {};
  /// The passes of each loop's body (KernelCounts::Loops, nested loops'
  /// passes per pass of the enclosing one): per warp the most any of its
  /// threads makes, averaged over the block's warps. None where the PTX or
  /// the values do not give it: that loop's body counts once (for the
  /// Loop::Lanes lanes that share its range together).
  std::vector<std::optional<double>> LoopTrips;
  /// How many times in a row a thread waits for its global loads: the
  /// passes of the loop that loads (nested loops' passes multiplied), or
  /// where more, the rounds of its code outside loops
  /// (KernelCounts::LoadRounds: loads behind a kept branch after a wait). A pass's loads are issued together, but the next pass's
  /// wait for the body that uses them.
  double LoadRounds = 1;
  /// Of the passes of loops that load, those that load what a loop before
  /// them loaded (a softmax's second and third walk over its row), which
  /// LoadRounds leaves out: they wait in a row after it, where L1 no longer
  /// holds their sectors (BlockCounts::RereadSectors, Model).
  double RereadRounds = 0;
  /// Whether the loop whose passes LoadRounds counts also stores to global
  /// memory: each pass then loads, computes and stores in turn.
  bool LoadRoundsStore = false;
  /// Whether that loop is a grid-stride loop (Loop::GridStride) with no
  /// barrier in it: the block's warps then make its passes each on its
  /// own, whatever barriers stand before or after it (a grid-stride loop
  /// between a block's setup and its reduction).
  bool LoadRoundsApart = false;
  /// The known global atomics (KernelCounts::GlobalAtomicAccesses) of a
  /// block in the middle of the grid, where every block of the grid updates
  /// the same addresses (none depends on %ctaid: a grid-wide sum, a
  /// histogram's bins added at a block's end), so that the grid's updates
  /// wait for each other in L2 (DeviceParams' atomic rates): the block's
  /// updates (one a lane), the distinct 128-byte lines they go to, the most
  /// it makes to one address, whether any of them is a float add,
  /// and whether all of them come after its loads (outside any loop that
  /// loads). All 0 where the addresses differ between blocks (or without a
  /// grid): each block's atomics then go to words of their own, as stores.
  double AtomicUpdates = 0, AtomicLines = 0, AtomicAddressUpdates = 0;
  bool AtomicsFloat = false;
  bool AtomicsAfterLoads = true;

  double fpWarpInstructions(FpType T) const {
    return FpWarpInstructions[unsigned(T)];
  }
};

/// What a block of Block threads executes of \p C; with the launch's Grid,
/// also what a block in its middle loads that its neighbours loaded before
/// it, on a device of L2Bytes of L2. Args are the argument values known
/// (LaunchConfig::Args), which trip counts and addresses read.
BlockCounts blockCounts(const KernelCounts &C, Dim3 Block,
                        std::optional<Dim3> Grid = std::nullopt,
                        uint64_t L2Bytes = 0,
                        llvm::ArrayRef<std::optional<int64_t>> Args = {});

} // namespace metacu::report

#endif
