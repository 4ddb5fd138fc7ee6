//===- EvaluatorTest.cpp - Budgets, memory and resume ---------------------===//
#include "tune/Evaluator.h"
#include "../TempDir.h"
#include "FakeRunner.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;
using test::FakeRunner;

/// One parameter with 20 values; configuration I takes 100 - I ms, and
/// every seventh is invalid.
static SearchSpace line() {
  Parameter P{"i", {}};
  for (int I = 0; I < 20; ++I)
    P.Values.push_back(Value::integer(I));
  return llvm::cantFail(SearchSpace::restricted(
      {P}, [](llvm::ArrayRef<uint32_t>) { return true; }));
}

static std::optional<double> lineCost(uint32_t I) {
  if (I % 7 == 3)
    return std::nullopt;
  return 100.0 - I;
}

TEST(EvaluatorTest, AskingAgainIsFreeAndInvalidCountsAsAnEvaluation) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  Evaluator E(S, R, {});
  Cost A = E.evaluate(5);
  EXPECT_TRUE(A.valid());
  EXPECT_EQ(A.Value, 95);
  Cost Bad = E.evaluate(3);
  EXPECT_TRUE(Bad.Evaluated);
  EXPECT_FALSE(Bad.valid());
  E.evaluate(5);
  E.evaluate(std::vector<uint32_t>{3, 5, 5});
  EXPECT_EQ(R.Measured, (std::vector<uint32_t>{5, 3}));
  EXPECT_EQ(E.evaluations(), 2u);
  EXPECT_EQ(E.best(), 5u);
}

TEST(EvaluatorTest, EvaluationBudgetStopsInsideABatch) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  Evaluator E(S, R, {Budget{4, std::nullopt}});
  std::vector<Cost> C = E.evaluate(std::vector<uint32_t>{0, 1, 0, 2, 4, 5, 6});
  // 0, 1, 2 and 4 fit the budget (the repeated 0 is free); 5 and 6 do not.
  EXPECT_TRUE(C[0].Evaluated && C[1].Evaluated && C[2].Evaluated &&
              C[3].Evaluated && C[4].Evaluated);
  EXPECT_FALSE(C[5].Evaluated);
  EXPECT_FALSE(C[6].Evaluated);
  EXPECT_TRUE(E.done());
  EXPECT_EQ(E.evaluations(), 4u);
  EXPECT_FALSE(E.evaluate(9).Evaluated);
  EXPECT_EQ(R.Measured.size(), 4u);
}

TEST(EvaluatorTest, TimeBudgetUsesTheRunnersClock) {
  SearchSpace S = line();
  FakeRunner R(lineCost); // one second per measurement
  Evaluator E(S, R, {Budget{std::nullopt, 3.5}});
  E.evaluate(std::vector<uint32_t>{0, 1, 2, 4, 5, 6, 7});
  // After 3 s there is time left; the 4th measurement ends at 4 s >= 3.5 s.
  EXPECT_EQ(R.Measured.size(), 4u);
  EXPECT_TRUE(E.done());
  ASSERT_EQ(E.trace().size(), 4u);
  EXPECT_EQ(E.trace()[2].Seconds, 3.0);
}

TEST(EvaluatorTest, DoneWhenEveryConfigurationIsEvaluated) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  Evaluator E(S, R, {});
  for (uint32_t I = 0; I < 19; ++I)
    E.evaluate(I);
  EXPECT_FALSE(E.done());
  E.evaluate(19);
  EXPECT_TRUE(E.done());
  EXPECT_EQ(E.best(), 19u);
}

TEST(EvaluatorTest, MaximisedObjectivesBecomeNegativeCosts) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  EvaluatorOptions O;
  O.Objective = Metric::fromObjective("GFLOP/s");
  Evaluator E(S, R, O);
  E.evaluate(std::vector<uint32_t>{1, 10});
  EXPECT_EQ(E.cost(1).Value, -99);
  EXPECT_EQ(E.best(), 1u);
}

TEST(EvaluatorTest, RunnerFailureStopsTheRunWithItsError) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  R.FailAfter = 2;
  Evaluator E(S, R, {});
  E.evaluate(std::vector<uint32_t>{0, 1, 2});
  EXPECT_TRUE(E.done());
  EXPECT_EQ(E.evaluations(), 2u);
  EXPECT_EQ(llvm::toString(E.takeError()), "device lost");
}

TEST(EvaluatorTest, BatchesGoToTheRunnerWhole) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  R.Batch = 4;
  Evaluator E(S, R, {});
  EXPECT_EQ(E.batchSize(), 4u);
  E.evaluate(std::vector<uint32_t>{8, 9, 9, 10, 11});
  ASSERT_EQ(R.Batches.size(), 1u);
  EXPECT_EQ(R.Batches[0], (std::vector<uint32_t>{8, 9, 10, 11}));
}

TEST(EvaluatorTest, JournalAnswersAnInterruptedRunsEvaluations) {
  SearchSpace S = line();
  TempDir T;
  std::string Path = T.path("journal.jsonl");
  std::vector<uint32_t> Plan{4, 9, 2, 17, 3, 11};
  {
    auto J = llvm::cantFail(Journal::open(Path));
    FakeRunner R(lineCost);
    R.FailAfter = 3; // the harness dies on the fourth candidate
    Evaluator E(S, R, {Budget{}, Metric{}, J.get()});
    E.evaluate(Plan);
    llvm::consumeError(E.takeError());
    EXPECT_EQ(E.evaluations(), 3u);
  }
  auto J = llvm::cantFail(Journal::open(Path));
  FakeRunner R(lineCost);
  Evaluator E(S, R, {Budget{}, Metric{}, J.get()});
  std::vector<Cost> C = E.evaluate(Plan);
  // Only what the first run did not finish is measured again.
  EXPECT_EQ(R.Measured, (std::vector<uint32_t>{17, 3, 11}));
  ASSERT_EQ(E.trace().size(), Plan.size());
  for (size_t I = 0; I < Plan.size(); ++I) {
    EXPECT_EQ(E.trace()[I].Config, Plan[I]);
    EXPECT_EQ(E.trace()[I].Resumed, I < 3);
  }
  EXPECT_EQ(C[1].Value, 91);
  EXPECT_FALSE(C[4].valid());
  // A journal of another device answers nothing.
  FakeRunner Other(lineCost);
  Other.Device.Device = "Other GPU";
  Evaluator E2(S, Other, {Budget{}, Metric{}, J.get()});
  E2.evaluate(Plan);
  EXPECT_EQ(Other.Measured.size(), Plan.size());
}

TEST(EvaluatorTest, CountsRoundsAndNumbersEachEvaluationsRound) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  R.Batch = 4;
  Evaluator E(S, R, {});
  E.evaluate(std::vector<uint32_t>{1, 2});
  E.evaluate(std::vector<uint32_t>{2}); // known: no round
  E.evaluate(std::vector<uint32_t>{5, 6, 7});
  EXPECT_EQ(E.rounds(), 2u);
  std::vector<unsigned> Rounds;
  for (const Evaluation &Ev : E.trace())
    Rounds.push_back(Ev.Round);
  EXPECT_EQ(Rounds, (std::vector<unsigned>{1, 1, 2, 2, 2}));
}

TEST(EvaluatorTest, RoundSizeIsTheRunnersUntilTheGpuTimeOutgrowsTheRest) {
  SearchSpace S = line();
  FakeRunner R(lineCost);
  R.Batch = 8;
  R.Round = 6;
  R.RoundSeconds = 2;
  // Each configuration: 1 s on the runner's clock, all of it on the GPU.
  R.GpuMs = 1000;
  Evaluator E(S, R, {});
  EXPECT_EQ(E.roundSize(), 6u);
  E.evaluate(std::vector<uint32_t>{0, 1, 2, 3});
  // The round took 6 s, 4 of them timing: the rest (2 s) times 2.
  EXPECT_EQ(E.roundSize(), 2u);

  // A GPU that keeps up leaves the runner's round size; the runner's is
  // never more than its batch.
  FakeRunner Fast(lineCost);
  Fast.Batch = 4;
  Fast.Round = 6;
  Fast.RoundSeconds = 2;
  Fast.GpuMs = 10;
  Evaluator F(S, Fast, {});
  EXPECT_EQ(F.roundSize(), 4u);
  F.evaluate(std::vector<uint32_t>{0, 1, 2, 3});
  EXPECT_EQ(F.roundSize(), 4u);

  // A GPU far slower than the rest still gets one a round.
  FakeRunner Slow(lineCost);
  Slow.Batch = 8;
  Slow.GpuMs = 100000;
  Evaluator Sl(S, Slow, {});
  Sl.evaluate(std::vector<uint32_t>{0, 1});
  EXPECT_EQ(Sl.roundSize(), 1u);
}
