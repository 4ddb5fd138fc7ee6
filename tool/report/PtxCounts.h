//===- PtxCounts.h - What one thread of each kernel executes, from its PTX ===//
//
// Static counts per entry function of nvcc's PTX: memory instructions and
// their bytes by state space, floating-point operations by type, branches,
// and whether a branch goes backwards (a loop). metacu unrolls meta loops,
// so a kernel without a loop executes each counted instruction once per
// thread (both sides of an if are counted). A loop's body (the instructions
// from its label to the branch back) is counted once too, and apart
// (Loop), with its trip count where the PTX gives it: an induction register
// stepped once a pass and compared with a limit, each a constant or a
// value of the thread's place, the launch and the parameters, which
// BlockCounts evaluates for the launch. Also the launch bounds PTX records
// and ptxas -v does not print.
//
// Instructions whose execution depends on the thread's place in its block
// alone (`if (threadIdx.x == 0)`, `if (threadIdx.x < 32)`, the last step of
// a staging loop that some threads skip, a predicated store) are also
// counted apart, under that condition, as ThreadValues: BlockCounts then
// counts what a block of a given size executes. Shared accesses whose
// addresses depend on the thread's place alone, and global loads and stores
// whose addresses come from the kernel's parameters, %ctaid and the
// thread's place, are recorded with them (KnownAccess), for bank conflicts,
// for what neighbouring blocks load alike and for the runs of bytes DRAM
// sees.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_PTXCOUNTS_H
#define METACU_REPORT_PTXCOUNTS_H

#include "report/ThreadValues.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu::report {

struct AccessCount {
  unsigned Instructions = 0;
  uint64_t Bytes = 0;
  void add(uint64_t B) {
    ++Instructions;
    Bytes += B;
  }
  AccessCount &operator+=(const AccessCount &O) {
    Instructions += O.Instructions;
    Bytes += O.Bytes;
    return *this;
  }
};

/// f16 covers f16, bf16 and their x2 pairs.
enum class FpType { F16, F32, F64 };

/// What a thread executes, or the part of it under one condition.
struct OpCounts {
  /// ld.global (also .nc, ldu, generic ld) and cp.async's global side.
  AccessCount GlobalLoads;
  /// st.global, and atom/red on global memory.
  AccessCount GlobalStores;
  AccessCount SharedLoads;
  AccessCount SharedStores;
  /// ld/st.local: arrays ptxas could not keep in registers.
  AccessCount LocalAccesses;
  /// Floating-point operations, fma and mad as 2, by FpType.
  uint64_t Flops[3] = {};
  /// Instructions on the FP pipes by FpType (an fma is one).
  unsigned FpInstructions[3] = {};
  unsigned Branches = 0;
  /// Barriers (bar.sync, barrier.sync and their kin): where a loop's body
  /// has one, its warps wait for each other once a pass (Model).
  unsigned Barriers = 0;
  /// Of the global stores, the atomics (atom, red): each a store of its
  /// bytes, and where its address is known (KernelCounts::
  /// GlobalAtomicAccesses) an update that waits for the others to its line.
  unsigned GlobalAtomics = 0;
  /// Instructions that issue, roughly as SASS will: parameter and constant
  /// loads (which become operands) and address conversions are left out.
  unsigned Instructions = 0;

  uint64_t flops(FpType T) const { return Flops[unsigned(T)]; }
  unsigned fpInstructions(FpType T) const {
    return FpInstructions[unsigned(T)];
  }
  OpCounts &operator+=(const OpCounts &O);
};

/// The instructions that run only where every literal of Guard holds.
struct GuardedCounts {
  llvm::SmallVector<GuardLiteral, 2> Guard;
  OpCounts Counts;
};

/// A load or store whose address is a ThreadValues node plus Offset: a
/// shared one relative to its array (the array's base moves every lane's
/// bank alike, so bank conflicts can be worked out for every warp of a
/// block), a global one from the kernel's parameters, %ctaid and the
/// thread's place (so a block's loads can be compared with its
/// neighbours'), BlockCounts.
struct KnownAccess {
  unsigned Address;
  int64_t Offset;
  /// Bytes per thread.
  unsigned Bytes;
  /// Where it runs (empty: for every thread).
  llvm::SmallVector<GuardLiteral, 2> Guard;
  /// The innermost loop (KernelCounts::Loops) it is in, if any.
  std::optional<unsigned> Loop;
  /// A load (ld, ldu), not a store.
  bool Load = false;
  /// An atomic on floating-point values, which L2 applies to one address
  /// more slowly than an integer one (DeviceParams).
  bool Float = false;
};

/// How many times a loop's body runs, as its PTX says: the induction
/// register holds Init at the loop's label and Step is added to it once a
/// pass; the branch back is taken while the new value compares with Limit
/// as Compare says (the induction on the left if InductionFirst, on the
/// right otherwise), or, Negated, while it does not. Init, Step and Limit
/// are ThreadValues nodes: constants, or values of the thread's place, the
/// launch and the parameters.
struct TripCount {
  unsigned Init, Step, Limit;
  ValueOp Compare;
  uint8_t Bits;
  bool Signed, InductionFirst, Negated;
  /// The register is not stepped but set to Init + Step, a constant, for
  /// the passes after the first: nvcc's form of a loop of two passes
  /// (`add.s32 %r45, %r46, 1; mov.u32 %r46, 1; setp.lt.u32 %p1, %r45, 2`).
  /// It makes at most two: a third would compare the same value again.
  bool Settles = false;
};

/// A backward branch and the instructions from its label to it.
struct Loop {
  std::string Label;
  /// The body's instructions, each once (a nested loop's too).
  OpCounts Body;
  /// None where the PTX does not give it (the branch back is not an
  /// induction register compared with a limit).
  std::optional<TripCount> Trip;
  /// The loop this one is nested in.
  std::optional<unsigned> Parent;
  /// Every register the body steps: its value at the label (a node) and
  /// the step added once a pass (a node), so that a pass's addresses can
  /// be worked out from the first's.
  std::vector<std::pair<unsigned, unsigned>> Inductions;
  /// Where Trip is none: the lanes that walk the loop's range together, as
  /// its address registers' steps show (a pointer stepped by S times the
  /// bytes a pass loads through it: the other S - 1 lanes read the words
  /// between), 1 where they show none. The body then counts once for
  /// those lanes together, 1 / Lanes a thread: what the range holds is
  /// unknown, but not that they split it.
  double Lanes = 1;
  /// Its step reads the launch (%nctaid, a parameter): a grid-stride loop,
  /// each block's share of the whole grid's work.
  bool GridStride = false;
};

/// The passes a loop's body makes for the values \p Values (a thread's,
/// ThreadValues::evaluate) give its nodes: none where they make it endless
/// or wrap around (a step away from the limit, a step of 0).
std::optional<uint64_t> tripCount(const TripCount &T,
                                  llvm::ArrayRef<uint64_t> Values);

/// A `call` in a body: the function's name (a register for a call through
/// a pointer) and where it runs (empty: for every thread).
struct CallSite {
  std::string Callee;
  llvm::SmallVector<GuardLiteral, 2> Guard;
};

/// A call whose work is not in the counts, and why.
struct UncountedCall {
  std::string Callee;
  std::string Why;
};

/// The counts (OpCounts) are of every instruction, whatever guards it, and
/// of the device functions it calls that nvcc did not inline (__noinline__,
/// recursive), once per call site: a callee's instructions are taken to run
/// wherever its call does.
struct KernelCounts : OpCounts {
  std::string Mangled;
  bool HasLoop = false;
  /// The entry's own loops, inner before outer.
  std::vector<Loop> Loops;
  /// A function it calls has a loop (its body is counted once per call).
  bool CalleeHasLoop = false;
  /// .maxntid or .reqntid, as a product of its dimensions.
  std::optional<unsigned> MaxThreadsPerBlock;
  /// The values of the thread's place that guards read.
  ThreadValues Values;
  /// The part of the counts under conditions on the thread's place, one
  /// entry per distinct condition (sorted literals).
  std::vector<GuardedCounts> Guarded;
  /// The shared loads and stores, and the global loads and stores, whose
  /// addresses are known that way.
  std::vector<KnownAccess> SharedAccesses, GlobalLoadAccesses,
      GlobalStoreAccesses;
  /// The global atomics (atom, red) whose addresses are known that way,
  /// apart from the stores they also count as: updates to one address wait
  /// for each other in L2 (BlockCounts::AtomicUpdates). An atomic on
  /// an address read from memory or computed from loaded data (a
  /// histogram's bin) is not among them.
  std::vector<KnownAccess> GlobalAtomicAccesses;
  /// The rounds of global loads a thread of the entry waits for one after
  /// another in its code outside loops (loadRounds): 1 where every load can
  /// go out before the first use of one.
  unsigned LoadRounds = 1;
  /// The calls in the body itself, in order.
  std::vector<CallSite> Calls;
  /// The functions called, directly or not, whose counts are included.
  std::vector<std::string> Called;
  /// The calls whose work is not: a recursive call (the function's body is
  /// counted once for the call that enters it), a call through a pointer,
  /// a function defined in another translation unit. With any, the counts
  /// are a lower bound, as with a loop.
  std::vector<UncountedCall> Uncounted;
};

/// The rounds in which a thread's global loads go out in the code outside
/// loops of an entry whose \p Body is given line by line (labels with
/// their colon, instructions with their predicate): a load starts a round
/// of its own where its address comes from a load of the round before, or
/// where a value loaded in the round before was used ahead of a branch
/// that ptxas keeps (a conditional forward branch over code that branches
/// itself) and the load comes after that branch: ptxas does not move a
/// load above a branch, and the use waits for its load. Straight-line
/// code otherwise issues its loads before their first use, 1 round.
/// maxpool's row tests (`if (r < 0) continue;` over a row of loads whose
/// maximum is taken before the next row) keep a thread's 9 loads in 3
/// rounds (docs/report.md, "Rounds of loads behind branches").
unsigned loadRounds(llvm::ArrayRef<std::string> Body);

/// One KernelCounts per .entry of \p Ptx, in order, with the .func bodies
/// they call counted in.
llvm::Expected<std::vector<KernelCounts>> countPtx(llvm::StringRef Ptx);

} // namespace metacu::report

#endif
