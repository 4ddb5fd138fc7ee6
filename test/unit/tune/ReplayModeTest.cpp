//===- ReplayModeTest.cpp - `metacu tune --replay` end to end -------------===//
#include "tune/ReplayMode.h"
#include "../TempDir.h"
#include "TuneTestData.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

TEST(ReplayModeTest, RunsTheDefaultStrategyAndSummarises) {
  TempDir T;
  ReplayOptions O;
  O.CachePath = T.write("bowl.json", test::bowlCache());
  O.Limit.Evaluations = 60;
  O.Seed = 4;
  ReplayResult R = llvm::cantFail(replay(O));
  EXPECT_EQ(R.Run.Strategy, "ils");
  EXPECT_EQ(R.Space.size(), size_t(test::BowlRecorded));
  EXPECT_EQ(R.ValidConfigs, size_t(test::BowlRecorded - 4)); // 2 failed, x2 z
  ASSERT_TRUE(R.Optimum.has_value());
  EXPECT_EQ(R.OptimumObjective, 1.0);
  ASSERT_TRUE(R.Run.Best.has_value());
  EXPECT_EQ(R.BestObjective, 1.0);

  // The first evaluation within 1% of 1 ms is the optimum itself (the next
  // best is 1.5 ms); within 2% likewise.
  auto To1 = R.evaluationsToWithin(0.01);
  ASSERT_TRUE(To1.has_value());
  EXPECT_EQ(R.Run.Trace[*To1 - 1].Config, *R.Optimum);
  EXPECT_EQ(R.evaluationsToWithin(0.02), To1);
  // Within 60% the 1.5 ms configurations count, and may come first.
  EXPECT_LE(*R.evaluationsToWithin(0.6), *To1);

  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printReplaySummary(OS, R, 5);
  EXPECT_NE(Text.find("x=5 y=3 z=0"), std::string::npos) << Text;
  EXPECT_NE(Text.find("top 5 of "), std::string::npos) << Text;
  EXPECT_NE(Text.find("to within 1%"), std::string::npos) << Text;
  EXPECT_NE(Text.find(std::to_string(*To1) + " evaluations"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("60 ("), std::string::npos) << Text;
}

TEST(ReplayModeTest, ResumesFromAJournal) {
  TempDir T;
  ReplayOptions O;
  O.CachePath = T.write("bowl.json", test::bowlCache());
  O.Strategy = "random_sample";
  O.Limit.Evaluations = 30;
  O.Outputs.Journal = T.path("journal.jsonl");
  ReplayResult First = llvm::cantFail(replay(O));
  ASSERT_EQ(First.Run.Trace.size(), 30u);

  // The same run again finds everything in the journal.
  ReplayResult Second = llvm::cantFail(replay(O));
  ASSERT_EQ(Second.Run.Trace.size(), 30u);
  for (size_t I = 0; I < 30; ++I) {
    EXPECT_TRUE(Second.Run.Trace[I].Resumed);
    EXPECT_EQ(Second.Run.Trace[I].Config, First.Run.Trace[I].Config);
  }
  EXPECT_EQ(Second.SimulatedSeconds, 0.0);
}

TEST(ReplayModeTest, TimeLimitOnTheRecordedClock) {
  TempDir T;
  ReplayOptions O;
  O.CachePath = T.write("bowl.json", test::bowlCache());
  O.Strategy = "brute_force";
  O.Limit.Seconds = 10; // each bowl evaluation recorded 1.5 s
  ReplayResult R = llvm::cantFail(replay(O));
  EXPECT_EQ(R.Run.Trace.size(), 7u); // 6 x 1.5 = 9 s < 10 s <= 7 x 1.5
  EXPECT_DOUBLE_EQ(R.SimulatedSeconds, 10.5);
}

TEST(ReplayModeTest, ErrorsNameTheProblem) {
  ReplayOptions O;
  O.CachePath = "/nonexistent/cache.json.gz";
  auto Missing = replay(O);
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(
      llvm::toString(Missing.takeError()).find("/nonexistent/cache.json.gz"),
      std::string::npos);

  TempDir T;
  O.CachePath = T.write("bowl.json", test::bowlCache());
  O.Strategy = "annealing";
  auto Unknown = replay(O);
  ASSERT_FALSE(bool(Unknown));
  std::string Message = llvm::toString(Unknown.takeError());
  EXPECT_NE(Message.find("unknown strategy 'annealing'"), std::string::npos);
  EXPECT_NE(Message.find("ils, greedy_ils"), std::string::npos) << Message;
}
