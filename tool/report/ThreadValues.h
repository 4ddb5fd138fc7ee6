//===- ThreadValues.h - Integer and predicate values of a block's threads -===//
//
// The part of a kernel's PTX that depends on nothing but the thread's place
// in its block: %tid, %ntid, %laneid and constants, combined by integer
// arithmetic, comparisons and predicate logic. PtxCounts records these
// values as it reads the PTX, so that a branch such as `if (threadIdx.x ==
// 0)` or `if (threadIdx.x < 32)`, or the last step of a staging loop that
// only some threads take, can be evaluated for every thread of a launch's
// block (BlockCounts). Addresses are followed too: shared ones relative to
// their array, for bank conflicts, and global ones from the kernel's
// parameters and %ctaid, for what neighbouring blocks load alike. Values
// come in program order, operands before their users, so one pass over the
// nodes evaluates them all for a thread.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_THREADVALUES_H
#define METACU_REPORT_THREADVALUES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace metacu::report {

enum class ValueOp : uint8_t {
  Constant,
  ThreadIndex, // %tid.x/y/z
  BlockSize,   // %ntid.x/y/z
  Lane,        // %laneid: the linear thread index modulo 32
  WarpIndex,   // %warpid, read as the linear thread index over 32
  // The block's place and the launch's parameters: they decide addresses
  // (BlockCounts compares a block's global loads with its neighbours'),
  // never guards, which are evaluated for one block.
  BlockIndex, // %ctaid.x/y/z
  GridSize,   // %nctaid.x/y/z
  Param,      // the kernel's parameter: A numbers it (paramValue), B is
              // its place in the signature (BlockPlace::Args)
  Add,
  Sub,
  Mul,
  MulAdd, // A * B + C
  MulHi,  // the upper half of A * B's double-width product
  Shl,
  Shr,
  And,
  Or,
  Xor,
  Not,
  Div,
  Rem,
  Min,
  Max,
  Convert, // to this node's width and signedness from the operand's
  Select,  // C ? A : B, C a predicate
  // Predicates (0 or 1).
  Equal,
  NotEqual,
  Less,
  LessEqual,
  Greater,
  GreaterEqual,
  PredAnd,
  PredOr,
  PredXor,
  PredNot,
};

/// An integer of Bits bits, or a predicate (Bits 1); Signed decides
/// comparisons, right shifts, division and widening. For comparisons the
/// width and signedness are those of the compared operands.
struct ValueNode {
  ValueOp Op;
  uint8_t Bits = 32;
  bool Signed = false;
  // Convert: whether the operand is read as signed when widened.
  bool SourceSigned = false;
  // Operand nodes, or for ThreadIndex, BlockSize, BlockIndex and GridSize
  // the dimension (0 to 2), for Param the parameter's number (A, in the
  // order first loaded) and its place among the kernel's parameters (B;
  // NoPlace for a field of a parameter, a structure passed by value).
  unsigned A = 0, B = 0, C = 0;
  uint64_t Constant = 0;
};

/// One condition of a guard: the predicate node Node holds (or, Negated,
/// does not).
struct GuardLiteral {
  unsigned Node;
  bool Negated;
  bool operator==(const GuardLiteral &O) const {
    return Node == O.Node && Negated == O.Negated;
  }
  bool operator<(const GuardLiteral &O) const {
    return Node != O.Node ? Node < O.Node : Negated < O.Negated;
  }
};

/// A Param node's place for a part of a parameter (ValueNode::B).
inline constexpr unsigned NoPlace = ~0u;

/// Where a block runs, for the nodes that read it.
struct BlockPlace {
  unsigned Index[3] = {0, 0, 0};
  unsigned Grid[3] = {1, 1, 1};
  /// The launch's argument values by the parameter's place, where known
  /// (LaunchConfig::Args); any other parameter gets paramValue's.
  llvm::ArrayRef<std::optional<int64_t>> Args;
};

/// The value a parameter is given: its value is unknown, so one that puts
/// arrays far apart and rows of a pitch far apart, as real ones are: a
/// 64-bit parameter (a pointer) is 2^40 apart from the next, a narrower
/// one (a size or pitch) is about 2^20, a multiple of 4096 so that rows
/// start sector-aligned as allocated pitches do. Comparing blocks'
/// addresses, only which of them coincide matters.
uint64_t paramValue(unsigned Index, unsigned Bits);

class ThreadValues {
public:
  unsigned add(ValueNode N) {
    Nodes.push_back(N);
    return Nodes.size() - 1;
  }

  /// Every node's value for the thread at Thread (x, y, z) of a block of
  /// Block threads, into Out (resized). Integers are held zero-extended
  /// from their width; predicates are 0 or 1.
  /// Shift adds to some nodes' values as they are computed (what their
  /// users then read): a loop's induction one pass on (PtxCounts' Loop).
  void evaluate(const unsigned Thread[3], const unsigned Block[3],
                llvm::SmallVectorImpl<uint64_t> &Out,
                const BlockPlace &Place = {},
                llvm::ArrayRef<std::pair<unsigned, uint64_t>> Shift = {}) const;

  /// The nodes evaluate() computes for each thread.
  size_t size() const { return Nodes.size(); }
  const ValueNode &node(unsigned I) const { return Nodes[I]; }

  /// Whether every literal of Guard holds, given evaluate()'s values.
  static bool holds(llvm::ArrayRef<GuardLiteral> Guard,
                    llvm::ArrayRef<uint64_t> Values);

private:
  std::vector<ValueNode> Nodes;
};

} // namespace metacu::report

#endif
