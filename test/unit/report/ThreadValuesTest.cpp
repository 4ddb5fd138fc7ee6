//===- ThreadValuesTest.cpp - Values of a thread's place, thread by thread ===//
//
// The integer semantics PTX gives each operation at its width and
// signedness, which decide how many threads a guard lets through.
//
//===----------------------------------------------------------------------===//
#include "report/ThreadValues.h"

#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

struct Built {
  ThreadValues V;
  unsigned add(ValueOp Op, uint8_t Bits, bool Signed, unsigned A = 0,
               unsigned B = 0, uint64_t Constant = 0) {
    ValueNode N{Op, Bits, Signed};
    N.A = A;
    N.B = B;
    N.Constant = Constant;
    return V.add(N);
  }
  llvm::SmallVector<uint64_t> at(unsigned X, unsigned Y, unsigned BX,
                                 unsigned BY) const {
    const unsigned Thread[3] = {X, Y, 0}, Block[3] = {BX, BY, 1};
    llvm::SmallVector<uint64_t> Out;
    V.evaluate(Thread, Block, Out);
    return Out;
  }
};

TEST(ThreadValuesTest, SignednessDecidesComparisonsAndShifts) {
  Built B;
  unsigned Tid = B.add(ValueOp::ThreadIndex, 32, false, 0);
  unsigned Two = B.add(ValueOp::Constant, 32, false, 0, 0, 2);
  unsigned Zero = B.add(ValueOp::Constant, 32, false);
  unsigned Diff = B.add(ValueOp::Sub, 32, true, Tid, Two); // tid - 2
  unsigned SignedLess = B.add(ValueOp::Less, 1, true, Diff, Zero);
  unsigned UnsignedLess = B.add(ValueOp::Less, 1, false, Diff, Zero);
  unsigned One = B.add(ValueOp::Constant, 32, false, 0, 0, 1);
  unsigned Arith = B.add(ValueOp::Shr, 32, true, Diff, One);
  unsigned Logical = B.add(ValueOp::Shr, 32, false, Diff, One);
  auto V = B.at(0, 0, 32, 1);
  EXPECT_EQ(V[Diff], 0xfffffffeu); // wraps at 32 bits
  EXPECT_EQ(V[SignedLess], 1u);
  EXPECT_EQ(V[UnsignedLess], 0u);
  EXPECT_EQ(V[Arith], 0xffffffffu);
  EXPECT_EQ(V[Logical], 0x7fffffffu);
  V = B.at(5, 0, 32, 1);
  EXPECT_EQ(V[Diff], 3u);
  EXPECT_EQ(V[SignedLess], 0u);
}

TEST(ThreadValuesTest, LanesAndWarpsFollowTheLinearIndex) {
  Built B;
  unsigned Lane = B.add(ValueOp::Lane, 32, false);
  unsigned Warp = B.add(ValueOp::WarpIndex, 32, false);
  unsigned Y = B.add(ValueOp::ThreadIndex, 32, false, 1);
  unsigned BX = B.add(ValueOp::BlockSize, 32, false, 0);
  // Thread (3, 4) of an 8 x 8 block is the 35th: lane 3 of warp 1.
  auto V = B.at(3, 4, 8, 8);
  EXPECT_EQ(V[Lane], 3u);
  EXPECT_EQ(V[Warp], 1u);
  EXPECT_EQ(V[Y], 4u);
  EXPECT_EQ(V[BX], 8u);
}

TEST(ThreadValuesTest, WideningAndDivisionByZero) {
  Built B;
  unsigned Tid = B.add(ValueOp::ThreadIndex, 32, false, 0);
  unsigned Three = B.add(ValueOp::Constant, 32, false, 0, 0, 3);
  unsigned Neg = B.add(ValueOp::Sub, 32, true, Tid, Three);
  ValueNode Widen{ValueOp::Convert, 64, true};
  Widen.SourceSigned = true;
  Widen.A = Neg;
  unsigned Wide = B.V.add(Widen);
  Widen.SourceSigned = false;
  unsigned ZeroExtended = B.V.add(Widen);
  unsigned Zero = B.add(ValueOp::Constant, 32, false);
  unsigned Quotient = B.add(ValueOp::Div, 32, true, Tid, Zero);
  unsigned Rem = B.add(ValueOp::Rem, 32, true, Neg, Three);
  auto V = B.at(1, 0, 32, 1);
  EXPECT_EQ(V[Wide], uint64_t(-2));
  EXPECT_EQ(V[ZeroExtended], 0xfffffffeu);
  EXPECT_EQ(V[Quotient], 0u);
  EXPECT_EQ(V[Rem], 0xfffffffeu); // -2 % 3 is -2
}

TEST(ThreadValuesTest, UpperHalvesOfProducts) {
  // nvcc divides by 20 as mul.hi.s32 by 0x66666667 and a shift by 3.
  Built B;
  unsigned Tid = B.add(ValueOp::ThreadIndex, 32, false, 0);
  unsigned Magic = B.add(ValueOp::Constant, 32, false, 0, 0, 0x66666667);
  unsigned High = B.add(ValueOp::MulHi, 32, true, Tid, Magic);
  unsigned Three = B.add(ValueOp::Constant, 32, false, 0, 0, 3);
  unsigned Quotient = B.add(ValueOp::Shr, 32, true, High, Three);
  unsigned Minus = B.add(ValueOp::Sub, 32, true, Three, Tid); // 3 - tid
  unsigned SignedHigh = B.add(ValueOp::MulHi, 32, true, Minus, Magic);
  unsigned UnsignedHigh = B.add(ValueOp::MulHi, 32, false, Minus, Magic);
  unsigned Big = B.add(ValueOp::Constant, 64, false, 0, 0, ~uint64_t(0));
  unsigned Wide = B.add(ValueOp::MulHi, 64, false, Big, Big);
  for (unsigned X : {0u, 19u, 20u, 41u, 1023u})
    EXPECT_EQ(B.at(X, 0, 1024, 1)[Quotient], X / 20) << X;
  auto V = B.at(43, 0, 1024, 1); // 3 - 43 = -40
  EXPECT_EQ(V[SignedHigh], uint32_t(int64_t(-40) * 0x66666667 >> 32));
  EXPECT_EQ(V[UnsignedHigh], uint32_t(uint64_t(uint32_t(-40)) * 0x66666667 >> 32));
  EXPECT_EQ(V[Wide], ~uint64_t(0) - 1); // (2^64 - 1)^2 >> 64
}

TEST(ThreadValuesTest, TheBlocksPlaceAndMadeUpParameters) {
  Built B;
  unsigned Block = B.add(ValueOp::BlockIndex, 32, false, 1);
  unsigned Grid = B.add(ValueOp::GridSize, 32, false, 0);
  unsigned Pointer = B.add(ValueOp::Param, 64, false, 0);
  unsigned Other = B.add(ValueOp::Param, 64, false, 1);
  unsigned Pitch = B.add(ValueOp::Param, 32, true, 2);
  llvm::SmallVector<uint64_t> V;
  const unsigned Thread[3] = {0, 0, 0}, Size[3] = {32, 1, 1};
  BlockPlace Place;
  Place.Index[1] = 7;
  Place.Grid[0] = 64;
  B.V.evaluate(Thread, Size, V, Place);
  EXPECT_EQ(V[Block], 7u);
  EXPECT_EQ(V[Grid], 64u);
  // Arrays 2^40 bytes apart, a pitch beyond any tile's width.
  EXPECT_EQ(V[Other] - V[Pointer], uint64_t(1) << 40);
  EXPECT_GT(V[Pitch], 1u << 20);
  EXPECT_LT(V[Pitch], 1u << 21);
  // Without a place: block 0 of a grid of one.
  B.V.evaluate(Thread, Size, V);
  EXPECT_EQ(V[Block], 0u);
  EXPECT_EQ(V[Grid], 1u);
}

TEST(ThreadValuesTest, GivenArgumentsReplaceMadeUpOnes) {
  Built B;
  // Parameters numbered 0 and 1 as first loaded, at places 1 and 0.
  unsigned N = B.add(ValueOp::Param, 32, true, 0, 1);
  unsigned Pointer = B.add(ValueOp::Param, 64, false, 1, 0);
  unsigned Field = B.add(ValueOp::Param, 32, false, 2, NoPlace);
  llvm::SmallVector<uint64_t> V;
  const unsigned Thread[3] = {0, 0, 0}, Size[3] = {32, 1, 1};
  BlockPlace Place;
  const std::optional<int64_t> Args[] = {std::nullopt, -3};
  Place.Args = Args;
  B.V.evaluate(Thread, Size, V, Place);
  // Held in the node's width: -3 as a 32-bit integer.
  EXPECT_EQ(V[N], 0xfffffffdu);
  EXPECT_EQ(V[Pointer], paramValue(1, 64));
  EXPECT_EQ(V[Field], paramValue(2, 32));
}

TEST(ThreadValuesTest, GuardsHoldWhenEveryLiteralDoes) {
  Built B;
  unsigned Tid = B.add(ValueOp::ThreadIndex, 32, false, 0);
  unsigned Four = B.add(ValueOp::Constant, 32, false, 0, 0, 4);
  unsigned Small = B.add(ValueOp::Less, 1, false, Tid, Four);
  unsigned Lane = B.add(ValueOp::Lane, 32, false);
  unsigned Zero = B.add(ValueOp::Constant, 32, false);
  unsigned First = B.add(ValueOp::Equal, 1, false, Lane, Zero);
  GuardLiteral SmallNotFirst[] = {{Small, false}, {First, true}};
  EXPECT_FALSE(ThreadValues::holds(SmallNotFirst, B.at(0, 0, 64, 1)));
  EXPECT_TRUE(ThreadValues::holds(SmallNotFirst, B.at(2, 0, 64, 1)));
  EXPECT_FALSE(ThreadValues::holds(SmallNotFirst, B.at(9, 0, 64, 1)));
  EXPECT_TRUE(ThreadValues::holds({}, B.at(9, 0, 64, 1)));
}

TEST(ThreadValuesTest, AShiftedNodeMovesItsUsers) {
  // An induction one pass on: p = base + 16 * tid, shifted by 4096; its
  // user p + 4 moves with it, the nodes before it do not.
  Built B;
  unsigned Tid = B.add(ValueOp::ThreadIndex, 32, false, 0);
  unsigned Sixteen = B.add(ValueOp::Constant, 32, false, 0, 0, 16);
  unsigned P = B.add(ValueOp::Mul, 32, false, Tid, Sixteen);
  unsigned Four = B.add(ValueOp::Constant, 32, false, 0, 0, 4);
  unsigned Next = B.add(ValueOp::Add, 32, false, P, Four);
  const unsigned Thread[3] = {3, 0, 0}, Block[3] = {32, 1, 1};
  llvm::SmallVector<uint64_t> V;
  std::pair<unsigned, uint64_t> Shift[] = {{P, 4096}};
  B.V.evaluate(Thread, Block, V, {}, Shift);
  EXPECT_EQ(V[Tid], 3u);
  EXPECT_EQ(V[P], 48u + 4096);
  EXPECT_EQ(V[Next], 52u + 4096);
  // At the node's width: a 32-bit value wraps.
  std::pair<unsigned, uint64_t> Back[] = {{P, uint64_t(-48)}};
  B.V.evaluate(Thread, Block, V, {}, Back);
  EXPECT_EQ(V[P], 0u);
  EXPECT_EQ(V[Next], 4u);
}

} // namespace
