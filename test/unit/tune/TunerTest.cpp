//===- TunerTest.cpp - A run, and the configurations a bundle holds -------===//
#include "tune/Tuner.h"
#include "TuneTestData.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

static std::vector<uint32_t> measured(const TuneResult &R) {
  std::vector<uint32_t> Out;
  for (const Evaluation &E : R.Trace)
    Out.push_back(E.Config);
  return Out;
}

// A bundle holds what a run of its strategy with the same seed measures: the
// same configurations in the same order, whatever the results.
TEST(TunerTest, ProposedConfigsAreWhatARunWithTheSeedMeasures) {
  test::Bowl B = test::bowl();
  for (unsigned Batch : {1u, 7u, 64u}) {
    test::FakeRunner R = test::replayingRunner(B);
    R.Batch = Batch;
    TuneOptions O;
    O.Strategy = "random_sample";
    O.Seed = 11;
    O.Evaluation.Limit.Evaluations = 20;
    TuneResult Run = llvm::cantFail(runTuning(B.Space, R, O));
    EXPECT_EQ(llvm::cantFail(
                  proposedConfigs(B.Space, "random_sample", 11, 20, Batch)),
              measured(Run))
        << "batch " << Batch;
  }
  // Random sampling draws the same sequence whatever the batch: a replay
  // (one at a time) measures what a bundle of rounds of 64 holds.
  EXPECT_EQ(
      llvm::cantFail(proposedConfigs(B.Space, "random_sample", 11, 40, 1)),
      llvm::cantFail(proposedConfigs(B.Space, "random_sample", 11, 40, 64)));
  auto All = llvm::cantFail(proposedConfigs(B.Space, "brute_force", 1, 0, 64));
  ASSERT_EQ(All.size(), B.Space.size());
  EXPECT_EQ(All.front(), 0u);
  EXPECT_EQ(All.back(), B.Space.size() - 1);
  EXPECT_NE(
      llvm::cantFail(proposedConfigs(B.Space, "random_sample", 1, 20, 64)),
      llvm::cantFail(proposedConfigs(B.Space, "random_sample", 2, 20, 64)));
}

TEST(TunerTest, AnAdaptiveOrUnknownStrategyProposesNothingAhead) {
  test::Bowl B = test::bowl();
  auto Ils = proposedConfigs(B.Space, "ils", 1, 20, 64);
  ASSERT_FALSE(Ils);
  EXPECT_NE(llvm::toString(Ils.takeError()).find("chooses by what it measures"),
            std::string::npos);
  auto Unknown = proposedConfigs(B.Space, "annealing", 1, 20, 64);
  ASSERT_FALSE(Unknown);
  EXPECT_NE(llvm::toString(Unknown.takeError()).find("unknown strategy"),
            std::string::npos);
}
