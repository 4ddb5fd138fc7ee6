//===- ClimbRoundsTest.cpp - Iterated local search, a round at a time -----===//
#include "tune/strategies/ClimbRounds.h"
#include "FakeRunner.h"
#include "TuneTestData.h"

#include "llvm/ADT/DenseSet.h"
#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

static ClimbOptions ilsOptions(ClimbMemory &Memory) {
  return {{Neighbourhood::Adjacent, Neighbourhood::Hamming},
          Pivot::First,
          /*FollowThrough=*/true,
          &Memory};
}

static std::vector<uint32_t> configs(const Evaluator &E) {
  std::vector<uint32_t> Out;
  for (const Evaluation &Ev : E.trace())
    Out.push_back(Ev.Config);
  return Out;
}

/// The search on the bowl with a runner of rounds of \p Round (at most 64
/// at once): the evaluator afterwards, and the runner's rounds.
struct Searched {
  test::Bowl B = test::bowl();
  test::FakeRunner Runner = test::replayingRunner(B);
  std::optional<Evaluator> E;

  Searched(unsigned Round, uint64_t Seed, std::optional<size_t> Budget) {
    Runner.Batch = 64;
    Runner.Round = Round;
    EvaluatorOptions O;
    O.Limit.Evaluations = Budget;
    E.emplace(B.Space, Runner, O);
    Random R(Seed);
    ClimbMemory Memory(B.Space.size());
    iterateClimbsInRounds(*E, R, ilsOptions(Memory), 3, 10);
  }
};

TEST(ClimbRoundsTest, OneAtATimeIsTheFirstImprovementSearch) {
  // A round of one has one walker: iterateClimbs()'s search exactly.
  for (uint64_t Seed : {1, 2, 7}) {
    Searched Rounds(1, Seed, 70);
    test::Bowl B = test::bowl();
    Evaluator E(B.Space, *B.Runner, {Budget{70}});
    Random R(Seed);
    ClimbMemory Memory(B.Space.size());
    iterateClimbs(E, R, ilsOptions(Memory), 3, 10);
    EXPECT_EQ(configs(*Rounds.E), configs(E)) << "seed " << Seed;
  }
}

TEST(ClimbRoundsTest, RoundsAreFilledToTheRoundSize) {
  Searched S(16, 3, 100);
  ASSERT_EQ(S.E->evaluations(), 100u);
  ASSERT_GT(S.Runner.Batches.size(), 2u);
  // Every round but the budget's last is full: the walkers' neighbours and
  // new walkers fill it.
  for (size_t I = 0; I + 1 < S.Runner.Batches.size(); ++I)
    EXPECT_EQ(S.Runner.Batches[I].size(), 16u) << "round " << I;
  EXPECT_LE(S.Runner.Batches.back().size(), 16u);
}

TEST(ClimbRoundsTest, FewerRoundsToTheOptimumThanOneNeighbourhoodARound) {
  // Every non-optimal configuration of the bowl has a better adjacent
  // neighbour, so every walker climbs to the optimum; with rounds of 16 the
  // best walker's whole neighbourhood goes in each round and it moves a
  // round a step.
  for (uint64_t Seed = 1; Seed <= 5; ++Seed) {
    Searched One(1, Seed, 60), Sixteen(16, Seed, 60);
    uint32_t Optimum = One.B.optimum();
    auto RoundOf = [&](const Searched &S) -> unsigned {
      for (const Evaluation &Ev : S.E->trace())
        if (Ev.Config == Optimum)
          return Ev.Round;
      return ~0u;
    };
    EXPECT_EQ(Sixteen.E->best(), Optimum) << "seed " << Seed;
    EXPECT_LT(RoundOf(Sixteen), RoundOf(One)) << "seed " << Seed;
  }
}

TEST(ClimbRoundsTest, WithoutABudgetMeasuresEveryConfigurationOnceAndEnds) {
  for (unsigned Round : {1u, 5u, 16u, 64u}) {
    Searched S(Round, 4, std::nullopt);
    std::vector<uint32_t> C = configs(*S.E);
    EXPECT_EQ(C.size(), size_t(test::BowlRecorded)) << Round;
    EXPECT_EQ(llvm::DenseSet<uint32_t>(C.begin(), C.end()).size(), C.size());
    for (const std::vector<uint32_t> &Batch : S.Runner.Batches)
      EXPECT_LE(Batch.size(), Round);
  }
}

TEST(ClimbRoundsTest, SameSeedSameRounds) {
  Searched A(16, 9, 80), B(16, 9, 80);
  EXPECT_EQ(A.Runner.Batches, B.Runner.Batches);
  Searched C(16, 10, 80);
  EXPECT_NE(A.Runner.Batches, C.Runner.Batches);
}
