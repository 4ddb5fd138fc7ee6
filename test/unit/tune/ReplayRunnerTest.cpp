//===- ReplayRunnerTest.cpp - Answers from a recorded cache ---------------===//
#include "TuneTestData.h"
#include "tune/runners/ReplayRunner.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

TEST(ReplayRunnerTest, AnswersRecordedTimesAndOutcomes) {
  test::Bowl B = test::bowl();
  std::vector<std::pair<size_t, Measurement>> Got;
  ASSERT_FALSE(bool(B.Runner->run(
      std::vector<uint32_t>{B.optimum(), B.index(8, 2, 1), B.index(1, 8, 0)},
      [&](size_t Position, Measurement M) {
        Got.emplace_back(Position, M);
        return true;
      })));
  ASSERT_EQ(Got.size(), 3u);
  EXPECT_EQ(Got[0].first, 0u);
  EXPECT_EQ(Got[0].second.Objective, test::bowlTime(5, 3, 0));
  EXPECT_EQ(Got[1].second.Status, Validity::Runtime);
  EXPECT_EQ(Got[2].second.Status, Validity::Compile);
  EXPECT_EQ(B.Runner->target().Device, "Test GPU");
}

TEST(ReplayRunnerTest, ClockAdvancesByTheRecordedCostAndStopsWhenAsked) {
  test::Bowl B = test::bowl();
  // Each bowl entry recorded 1000 ms compiling and 500 ms benchmarking.
  int Calls = 0;
  ASSERT_FALSE(
      bool(B.Runner->run(std::vector<uint32_t>{0, 1, 2, 3},
                         [&](size_t, Measurement) { return ++Calls < 2; })));
  EXPECT_EQ(Calls, 2);
  EXPECT_DOUBLE_EQ(B.Runner->seconds(), 3.0);
}

TEST(ReplayRunnerTest, ASpaceTheCacheDoesNotCoverIsAnError) {
  test::Bowl B = test::bowl();
  auto Full = SearchSpace::restricted(
      std::vector<Parameter>(B.Space.parameters().begin(),
                             B.Space.parameters().end()),
      [](llvm::ArrayRef<uint32_t>) { return true; });
  ASSERT_TRUE(bool(Full));
  auto R = ReplayRunner::create(B.Cache, *Full);
  ASSERT_FALSE(bool(R));
  // 7,7 is restricted in the bowl, so never recorded.
  EXPECT_NE(llvm::toString(R.takeError()).find("no record of 7,7,"),
            std::string::npos);
}

TEST(ReplayRunnerTest, RoundModelCostsTheFixedPartThenCompilesOrTiming) {
  RoundModel M;
  M.Cores = 4;
  M.FixedSeconds = 8;
  M.CompileSeconds = 3;
  // Up to the cores, one compile's time; then waves of them.
  EXPECT_DOUBLE_EQ(M.roundSeconds(1, 0), 11);
  EXPECT_DOUBLE_EQ(M.roundSeconds(4, 0), 11);
  EXPECT_DOUBLE_EQ(M.roundSeconds(5, 0), 14);
  // The GPU's timing when it takes longer than the compiles.
  EXPECT_DOUBLE_EQ(M.roundSeconds(4, 10), 18);
  EXPECT_EQ(M.batch(), 4u);
  M.Batch = 64;
  EXPECT_EQ(M.batch(), 64u);
}

TEST(ReplayRunnerTest, InRoundsTheClockAdvancesARoundAtATime) {
  test::Bowl B = test::bowl();
  EXPECT_EQ(B.Runner->preferredBatch(), 1u);
  EXPECT_EQ(B.Runner->roundSize(), 1u);
  RoundModel M;
  M.Cores = 2;
  M.Batch = 8;
  M.FixedSeconds = 1;
  M.CompileSeconds = 2;
  B.Runner->runInRounds(M);
  EXPECT_EQ(B.Runner->preferredBatch(), 8u);
  EXPECT_EQ(B.Runner->roundSize(), 2u);
  std::vector<double> Seen;
  // Three configurations: 1 s fixed, two waves of 2 s compiles (4 s)
  // against 1.5 s of recorded benchmarks; every result at the round's end.
  ASSERT_FALSE(bool(
      B.Runner->run(std::vector<uint32_t>{0, 1, 2}, [&](size_t, Measurement) {
        Seen.push_back(B.Runner->seconds());
        return true;
      })));
  EXPECT_EQ(Seen, (std::vector<double>{5, 5, 5}));
}
