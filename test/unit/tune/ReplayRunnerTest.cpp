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
