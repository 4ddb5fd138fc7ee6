//===- LocalSearchTest.cpp - Climbs, walks and restarts -------------------===//
#include "tune/strategies/LocalSearch.h"
#include "TuneTestData.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

static unsigned distance(const SearchSpace &S, uint32_t A, uint32_t B) {
  Config CA = S.config(A), CB = S.config(B);
  unsigned D = 0;
  for (size_t I = 0; I < CA.size(); ++I)
    D += CA[I] != CB[I];
  return D;
}

TEST(LocalSearchTest, EveryClimbOfTheBowlEndsAtItsOptimum) {
  for (Neighbourhood N : {Neighbourhood::Adjacent, Neighbourhood::Hamming})
    for (Pivot P : {Pivot::First, Pivot::Best}) {
      test::Bowl B = test::bowl();
      Evaluator E(B.Space, *B.Runner, {});
      Random R(1);
      EXPECT_EQ(climb(E, R, B.index(1, 1, 1), {{N}, P}), B.optimum());
    }
}

TEST(LocalSearchTest, BestImprovementTakesTheSteepestHammingStep) {
  test::Bowl B = test::bowl();
  Evaluator E(B.Space, *B.Runner, {});
  Random R(1);
  uint32_t Start = B.index(1, 1, 1);
  climb(E, R, Start, {{Neighbourhood::Hamming}, Pivot::Best});
  // From (1,1,1): x -> 5 gains 16 ms, more than y -> 3 (4) or z -> 0 (0.5),
  // so after the start and its 15 neighbours every evaluation is a
  // neighbour of (5,1,1) or of the later points, never of (1,3,1).
  ASSERT_GT(E.trace().size(), 16u);
  uint32_t Second = B.index(5, 1, 1);
  EXPECT_EQ(distance(B.Space, E.trace()[16].Config, Second), 1u);
}

TEST(LocalSearchTest, AStartAndItsNeighbourhoodAreOneBatch) {
  // A runner that takes 64 at once gets the start with its whole first
  // neighbourhood, not the start alone and then the neighbours; the climb
  // ends where it does one at a time.
  uint32_t Ends[2];
  for (unsigned Batch : {1u, 64u}) {
    test::Bowl B = test::bowl();
    test::FakeRunner Runner = test::replayingRunner(B);
    Runner.Batch = Batch;
    Evaluator E(B.Space, Runner, {});
    Random R(1);
    uint32_t Start = B.index(1, 1, 1);
    Ends[Batch > 1] =
        climb(E, R, Start, {{Neighbourhood::Hamming}, Pivot::First});
    llvm::SmallVector<uint32_t, 64> Near;
    B.Space.neighbours(Start, Neighbourhood::Hamming, Near);
    ASSERT_FALSE(Runner.Batches.empty());
    EXPECT_EQ(Runner.Batches.front().size(), Batch > 1 ? Near.size() + 1 : 1u);
    EXPECT_EQ(Runner.Batches.front().front(), Start);
  }
  EXPECT_EQ(Ends[0], Ends[1]);
}

TEST(LocalSearchTest, InvalidStartClimbsToAValidNeighbour) {
  test::Bowl B = test::bowl();
  Evaluator E(B.Space, *B.Runner, {});
  Random R(4);
  uint32_t End =
      climb(E, R, B.index(8, 2, 0), {{Neighbourhood::Adjacent}, Pivot::First});
  EXPECT_TRUE(E.cost(End).valid());
  EXPECT_EQ(End, B.optimum());
}

TEST(LocalSearchTest, MemoryStopsAClimbOnAnEarlierPath) {
  test::Bowl B = test::bowl();
  Evaluator E(B.Space, *B.Runner, {});
  Random R(2);
  ClimbMemory Memory(B.Space.size());
  // Pretend an earlier climb went through (2,3,0) and ended at (4,4,0).
  Memory.remember({B.index(2, 3, 0)}, B.index(4, 4, 0));
  ClimbOptions O{{Neighbourhood::Adjacent}, Pivot::First, true, &Memory};
  // From (1,3,0) the only better adjacent neighbour is (2,3,0): the climb
  // steps there and stops with the remembered optimum, having evaluated at
  // most the start and its four neighbours.
  EXPECT_EQ(climb(E, R, B.index(1, 3, 0), O), B.index(4, 4, 0));
  EXPECT_LE(E.evaluations(), 5u);
  EXPECT_EQ(Memory.optimumFrom(B.index(1, 3, 0)), B.index(4, 4, 0));
  // Without memory the same climb goes on to the real optimum.
  ClimbOptions Plain{{Neighbourhood::Adjacent}, Pivot::First};
  EXPECT_EQ(climb(E, R, B.index(1, 3, 0), Plain), B.optimum());
  // A finished climb remembers its whole path.
  ClimbMemory Fresh(B.Space.size());
  O.Memory = &Fresh;
  climb(E, R, B.index(1, 3, 0), O);
  EXPECT_EQ(Fresh.optimumFrom(B.index(3, 3, 0)), B.optimum());
}

TEST(LocalSearchTest, RandomWalkStaysValidAndWithinItsSteps) {
  test::Bowl B = test::bowl();
  Random R(9);
  for (int I = 0; I < 50; ++I) {
    uint32_t From = R.below(B.Space.size());
    uint32_t To = randomWalk(B.Space, R, From, 2, Neighbourhood::Hamming);
    EXPECT_LT(To, B.Space.size());
    EXPECT_LE(distance(B.Space, From, To), 2u);
  }
}

TEST(LocalSearchTest, RandomUnevaluatedNeverRepeats) {
  test::Bowl B = test::bowl();
  Evaluator E(B.Space, *B.Runner, {});
  Random R(6);
  while (!E.done()) {
    uint32_t C = randomUnevaluated(E, R);
    ASSERT_FALSE(E.known(C));
    E.evaluate(C);
  }
  EXPECT_EQ(E.evaluations(), B.Space.size());
}
