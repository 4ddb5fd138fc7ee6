//===- ThreadValues.cpp ---------------------------------------------------===//
#include "report/ThreadValues.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

namespace metacu::report {

static uint64_t truncate(uint64_t V, unsigned Bits) {
  return Bits >= 64 ? V : V & ((uint64_t(1) << Bits) - 1);
}

// V, held in Bits bits, widened to 64 as signed or unsigned.
static uint64_t widen(uint64_t V, unsigned Bits, bool Signed) {
  return Signed && Bits < 64 ? uint64_t(llvm::SignExtend64(V, Bits)) : V;
}

static int64_t asSigned(uint64_t V, unsigned Bits) {
  return Bits < 64 ? llvm::SignExtend64(V, Bits) : int64_t(V);
}

// A comparison of A and B, integers of Bits bits.
static bool compare(ValueOp Op, uint64_t A, uint64_t B, unsigned Bits,
                    bool Signed) {
  auto Ordered = [&](auto X, auto Y) {
    switch (Op) {
    case ValueOp::Equal:
      return X == Y;
    case ValueOp::NotEqual:
      return X != Y;
    case ValueOp::Less:
      return X < Y;
    case ValueOp::LessEqual:
      return X <= Y;
    case ValueOp::Greater:
      return X > Y;
    default:
      return X >= Y;
    }
  };
  return Signed ? Ordered(asSigned(A, Bits), asSigned(B, Bits))
                : Ordered(A, B);
}

uint64_t paramValue(unsigned Index, unsigned Bits) {
  return Bits >= 64 ? uint64_t(Index + 1) << 40
                    : truncate((uint64_t(1) << 20) + (uint64_t(Index) << 12),
                               Bits);
}

// The value of N, whose operands' values are in Values.
static uint64_t value(const ValueNode &N, const unsigned Thread[3],
                      const unsigned Block[3], const BlockPlace &Place,
                      llvm::ArrayRef<uint64_t> Values,
                      llvm::ArrayRef<ValueNode> Nodes) {
  unsigned Linear = Thread[0] + Thread[1] * Block[0] +
                    Thread[2] * Block[0] * Block[1];
  auto In = [&](unsigned I) {
    return widen(Values[I], Nodes[I].Bits, N.Signed);
  };
  // Leaves (constants, the thread's and the block's place, parameters)
  // have no operand nodes.
  bool Leaf = N.Op <= ValueOp::Param;
  uint64_t A = Leaf ? 0 : In(N.A), B = Leaf ? 0 : In(N.B);
  unsigned W = N.Bits;
  switch (N.Op) {
  case ValueOp::Constant:
    return truncate(N.Constant, W);
  case ValueOp::ThreadIndex:
    return Thread[N.A];
  case ValueOp::BlockSize:
    return Block[N.A];
  case ValueOp::Lane:
    return Linear % 32;
  case ValueOp::WarpIndex:
    return Linear / 32;
  case ValueOp::BlockIndex:
    return Place.Index[N.A];
  case ValueOp::GridSize:
    return Place.Grid[N.A];
  case ValueOp::Param:
    if (N.B < Place.Args.size() && Place.Args[N.B])
      return truncate(uint64_t(*Place.Args[N.B]), W);
    return paramValue(N.A, W);
  case ValueOp::Add:
    return truncate(A + B, W);
  case ValueOp::Sub:
    return truncate(A - B, W);
  case ValueOp::Mul:
    return truncate(A * B, W);
  case ValueOp::MulAdd:
    return truncate(A * B + In(N.C), W);
  case ValueOp::MulHi:
    // A and B are widened by signedness, so the double-width product fits
    // 128 bits either way.
    if (N.Signed)
      return truncate(uint64_t((__int128(int64_t(A)) * int64_t(B)) >> W), W);
    return truncate(uint64_t((static_cast<unsigned __int128>(A) * B) >> W), W);
  case ValueOp::Shl:
    return B >= W ? 0 : truncate(A << B, W);
  case ValueOp::Shr:
    if (N.Signed) {
      int64_t S = asSigned(A, W);
      return truncate(uint64_t(B >= W ? (S < 0 ? -1 : 0) : S >> B), W);
    }
    return B >= W ? 0 : truncate(A, W) >> B;
  case ValueOp::And:
    return truncate(A & B, W);
  case ValueOp::Or:
    return truncate(A | B, W);
  case ValueOp::Xor:
    return truncate(A ^ B, W);
  case ValueOp::Not:
    return truncate(~A, W);
  case ValueOp::Div:
  case ValueOp::Rem: {
    // PTX leaves division by zero undefined; any value will do.
    if (truncate(B, W) == 0)
      return 0;
    bool IsDiv = N.Op == ValueOp::Div;
    if (!N.Signed)
      return IsDiv ? truncate(A, W) / truncate(B, W)
                   : truncate(A, W) % truncate(B, W);
    int64_t X = asSigned(A, W), Y = asSigned(B, W);
    if (Y == -1) // avoids the one overflowing quotient
      return truncate(IsDiv ? uint64_t(0) - uint64_t(X) : 0, W);
    return truncate(uint64_t(IsDiv ? X / Y : X % Y), W);
  }
  case ValueOp::Min:
  case ValueOp::Max: {
    bool ALess = compare(ValueOp::Less, truncate(A, W), truncate(B, W), W,
                         N.Signed);
    return truncate((N.Op == ValueOp::Min) == ALess ? A : B, W);
  }
  case ValueOp::Convert:
    return truncate(widen(Values[N.A], Nodes[N.A].Bits, N.SourceSigned), W);
  case ValueOp::Select:
    return Values[N.C] ? truncate(A, W) : truncate(B, W);
  case ValueOp::Equal:
  case ValueOp::NotEqual:
  case ValueOp::Less:
  case ValueOp::LessEqual:
  case ValueOp::Greater:
  case ValueOp::GreaterEqual: {
    unsigned Bits = Nodes[N.A].Bits;
    return compare(N.Op, truncate(A, Bits), truncate(B, Bits), Bits,
                   N.Signed);
  }
  case ValueOp::PredAnd:
    return Values[N.A] & Values[N.B];
  case ValueOp::PredOr:
    return Values[N.A] | Values[N.B];
  case ValueOp::PredXor:
    return Values[N.A] ^ Values[N.B];
  case ValueOp::PredNot:
    return !Values[N.A];
  }
  return 0;
}

void ThreadValues::evaluate(
    const unsigned Thread[3], const unsigned Block[3],
    llvm::SmallVectorImpl<uint64_t> &Out, const BlockPlace &Place,
    llvm::ArrayRef<std::pair<unsigned, uint64_t>> Shift) const {
  Out.clear();
  Out.reserve(Nodes.size());
  // A shifted node's value moves before its users read it.
  for (unsigned I = 0; I < Nodes.size(); ++I) {
    uint64_t V = value(Nodes[I], Thread, Block, Place, Out, Nodes);
    for (auto [Node, By] : Shift)
      if (Node == I)
        V = truncate(V + By, Nodes[I].Bits);
    Out.push_back(V);
  }
}

bool ThreadValues::holds(llvm::ArrayRef<GuardLiteral> Guard,
                         llvm::ArrayRef<uint64_t> Values) {
  return llvm::all_of(Guard, [&](const GuardLiteral &L) {
    return (Values[L.Node] != 0) != L.Negated;
  });
}

} // namespace metacu::report
