//===- RandomTest.cpp - The tuner's pseudo-random numbers -----------------===//
#include "tune/Random.h"

#include <gtest/gtest.h>
#include <set>

using namespace metacu::tune;

TEST(RandomTest, SameSeedSameSequenceOtherSeedOtherSequence) {
  Random A(42), B(42), C(43);
  bool Differs = false;
  for (int I = 0; I < 100; ++I) {
    uint64_t X = A.next();
    EXPECT_EQ(X, B.next());
    Differs |= X != C.next();
  }
  EXPECT_TRUE(Differs);
}

TEST(RandomTest, XoshiroStepFromKnownSeedState) {
  // With splitmix64 seeding, seed 0 gives the state words splitmix64's first
  // four outputs from 0, the first of which is the published
  // 0xe220a8397b1dcdaf. xoshiro256**'s first output depends only on the second
  // state word: rotl(s1 * 5, 7) * 9.
  uint64_t X = 0;
  auto Splitmix = [&X] {
    uint64_t Z = (X += 0x9e3779b97f4a7c15ULL);
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  };
  EXPECT_EQ(Splitmix(), 0xe220a8397b1dcdafULL);
  uint64_t S1 = Splitmix() * 5;
  uint64_t Expected = ((S1 << 7) | (S1 >> 57)) * 9;
  EXPECT_EQ(Random(0).next(), Expected);
}

TEST(RandomTest, BelowIsInRangeAndRoughlyUniform) {
  Random R(7);
  int Counts[10] = {};
  for (int I = 0; I < 100000; ++I) {
    uint64_t X = R.below(10);
    ASSERT_LT(X, 10u);
    ++Counts[X];
  }
  // 10000 expected per bucket; the standard deviation is about 95.
  for (int C : Counts) {
    EXPECT_GT(C, 9500);
    EXPECT_LT(C, 10500);
  }
  EXPECT_EQ(R.below(1), 0u);
}

TEST(RandomTest, UnitIsInHalfOpenInterval) {
  Random R(3);
  double Sum = 0;
  for (int I = 0; I < 10000; ++I) {
    double U = R.unit();
    ASSERT_GE(U, 0.0);
    ASSERT_LT(U, 1.0);
    Sum += U;
  }
  EXPECT_NEAR(Sum / 10000, 0.5, 0.02);
}

TEST(RandomTest, ShuffleIsAPermutation) {
  Random R(5);
  std::vector<int> V{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  R.shuffle(V);
  EXPECT_EQ(std::set<int>(V.begin(), V.end()).size(), 10u);
  std::vector<int> Sorted{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_NE(V, Sorted);
}
