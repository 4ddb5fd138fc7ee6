//===- StrategyTest.cpp - Every strategy on a replayed space --------------===//
#include "tune/strategies/Strategy.h"
#include "FakeRunner.h"
#include "TuneTestData.h"
#include "tune/Tuner.h"

#include "llvm/ADT/DenseSet.h"
#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

static std::vector<uint32_t> configs(const TuneResult &R) {
  std::vector<uint32_t> Out;
  for (const Evaluation &E : R.Trace)
    Out.push_back(E.Config);
  return Out;
}

static TuneResult run(llvm::StringRef Strategy, uint64_t Seed,
                      std::optional<size_t> Evaluations) {
  test::Bowl B = test::bowl();
  TuneOptions O;
  O.Strategy = Strategy.str();
  O.Seed = Seed;
  O.Evaluation.Limit.Evaluations = Evaluations;
  return llvm::cantFail(runTuning(B.Space, *B.Runner, O));
}

class EveryStrategy : public ::testing::TestWithParam<const char *> {};

TEST_P(EveryStrategy, SameSeedSameRun) {
  TuneResult A = run(GetParam(), 11, 40), B = run(GetParam(), 11, 40);
  EXPECT_EQ(configs(A), configs(B));
  EXPECT_EQ(A.Best, B.Best);
}

TEST_P(EveryStrategy, SpendsExactlyTheBudgetOnDistinctConfigurations) {
  TuneResult R = run(GetParam(), 3, 25);
  EXPECT_EQ(R.Trace.size(), 25u);
  std::vector<uint32_t> C = configs(R);
  EXPECT_EQ(llvm::DenseSet<uint32_t>(C.begin(), C.end()).size(), C.size());
}

TEST_P(EveryStrategy, WithoutABudgetEvaluatesTheWholeSpaceAndStops) {
  // Ending at all is the point: local searches must restart elsewhere when
  // every neighbourhood is known.
  TuneResult R = run(GetParam(), 5, std::nullopt);
  EXPECT_EQ(R.Trace.size(), size_t(test::BowlRecorded));
  test::Bowl B = test::bowl();
  EXPECT_EQ(R.Best, B.optimum());
}

TEST_P(EveryStrategy, RunsWithABatchingRunner) {
  test::Bowl B = test::bowl();
  test::FakeRunner R = test::replayingRunner(B);
  R.Batch = 4;
  TuneOptions O;
  O.Strategy = GetParam();
  O.Seed = 2;
  O.Evaluation.Limit.Evaluations = 30;
  TuneResult A = llvm::cantFail(runTuning(B.Space, R, O));
  EXPECT_EQ(A.Trace.size(), 30u);
  for (const std::vector<uint32_t> &Batch : R.Batches)
    EXPECT_LE(Batch.size(), 4u);
}

TEST(StrategyTest, IlsMeasuresASpaceThatFitsOneBatchInOneBatch) {
  // A round's fixed cost dominates on the GPU: a space the runner takes at
  // once is measured whole in one round, not climbed in several.
  test::Bowl B = test::bowl();
  for (unsigned Batch : {unsigned(B.Space.size()), unsigned(B.Space.size()) - 1}) {
    test::FakeRunner R = test::replayingRunner(B);
    R.Batch = Batch;
    TuneOptions O;
    O.Strategy = "ils";
    TuneResult A = llvm::cantFail(runTuning(B.Space, R, O));
    EXPECT_EQ(A.Best, B.optimum());
    if (Batch == B.Space.size()) {
      ASSERT_EQ(R.Batches.size(), 1u);
      EXPECT_EQ(R.Batches.front().size(), B.Space.size());
    } else {
      EXPECT_GT(R.Batches.size(), 1u);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryStrategy,
                         ::testing::Values("ils", "greedy_ils", "mls",
                                           "random_sample", "brute_force"),
                         [](const auto &Info) {
                           return std::string(Info.param);
                         });

TEST(StrategyTest, SeedsChangeTheRandomisedStrategies) {
  for (const char *S : {"ils", "greedy_ils", "mls", "random_sample"})
    EXPECT_NE(configs(run(S, 1, 30)), configs(run(S, 2, 30))) << S;
}

TEST(StrategyTest, BruteForceGoesInEnumerationOrder) {
  TuneResult R = run("brute_force", 1, 10);
  for (uint32_t I = 0; I < 10; ++I)
    EXPECT_EQ(R.Trace[I].Config, I);
}

TEST(StrategyTest, LocalSearchesFindTheBowlsOptimumQuickly) {
  // Every non-optimal configuration of the bowl has a better adjacent
  // neighbour, so one climb from anywhere ends at the optimum: 120
  // configurations, and a climb needs far fewer than half of them.
  test::Bowl B = test::bowl();
  for (const char *S : {"ils", "greedy_ils", "mls"})
    for (uint64_t Seed = 1; Seed <= 5; ++Seed)
      EXPECT_EQ(run(S, Seed, 60).Best, B.optimum()) << S << " seed " << Seed;
}

TEST(StrategyTest, RegistryNamesTheDefaultFirst) {
  ASSERT_FALSE(strategies().empty());
  EXPECT_EQ(strategies().front().Name, defaultStrategy());
  EXPECT_EQ(defaultStrategy(), "ils");
  EXPECT_TRUE(findStrategy("mls"));
  EXPECT_FALSE(findStrategy("annealing"));
}
