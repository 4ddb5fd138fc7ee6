//===- ProgressTest.cpp - The progress line of a tuning run ---------------===//
#include "tune/Progress.h"
#include "FakeRunner.h"

#include "llvm/ADT/StringExtras.h"
#include <gtest/gtest.h>

using namespace metacu::tune;
using metacu::tune::test::FakeRunner;

namespace {

/// 20 configurations; configuration I takes 20 - I ms except 5, which
/// fails, so evaluating in order improves at every valid step.
SearchSpace line() {
  Parameter P{"i", {}};
  for (int I = 0; I < 20; ++I)
    P.Values.push_back(Value::integer(I));
  return llvm::cantFail(SearchSpace::restricted(
      {P}, [](llvm::ArrayRef<uint32_t>) { return true; }));
}

std::optional<double> cost(uint32_t I) {
  if (I == 5)
    return std::nullopt;
  return 20.0 - I;
}

/// Evaluates \p Configs one by one, as a strategy would, with \p P
/// listening; the fake runner takes one second per evaluation.
std::string run(Progress::Style Style, Budget Limit,
                llvm::ArrayRef<uint32_t> Configs) {
  SearchSpace S = line();
  FakeRunner R(cost);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Progress P(OS, Style);
  EvaluatorOptions O;
  O.Limit = Limit;
  O.Listener = &P;
  Evaluator E(S, R, O);
  P.started(E);
  for (uint32_t C : Configs)
    E.evaluate(C);
  P.finished(E);
  return Text;
}

} // namespace

TEST(ProgressTest, LinesAtEveryTenthOfTheBudgetAndAtTheEnd) {
  std::vector<uint32_t> All;
  for (uint32_t I = 0; I < 20; ++I)
    All.push_back(I);
  std::string Text = run(Progress::Style::Lines, {10, std::nullopt}, All);
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(Text).trim().split(Lines, '\n');
  ASSERT_EQ(Lines.size(), 10u) << Text;
  EXPECT_EQ(Lines[0], "metacu tune: 1/10 evaluations, best 20.000 ms "
                      "(evaluation 1, 0 since), about 9s left");
  // Evaluation 6 (configuration 5) failed: the best is still evaluation 5's.
  EXPECT_EQ(Lines[5], "metacu tune: 6/10 evaluations, best 16.000 ms "
                      "(evaluation 5, 1 since), about 4s left");
  EXPECT_EQ(Lines[9], "metacu tune: 10/10 evaluations, best 11.000 ms "
                      "(evaluation 10, 0 since)");
  EXPECT_EQ(Text.find('\r'), std::string::npos);
}

TEST(ProgressTest, ATimeBudgetSaysHowMuchIsSpent) {
  std::string Text =
      run(Progress::Style::Lines, {std::nullopt, 100.0}, {5, 0, 1});
  // Without a count budget, every configuration once bounds the run: the
  // second evaluation is its first tenth. The end has no estimate.
  EXPECT_EQ(Text, "metacu tune: 2/20 evaluations, 2s of 1m40s, best 20.000 ms "
                  "(evaluation 2, 0 since), about 18s left\n"
                  "metacu tune: 3/20 evaluations, 3s of 1m40s, best 19.000 ms "
                  "(evaluation 3, 0 since)\n");
}

TEST(ProgressTest, NothingValidYet) {
  std::string Text = run(Progress::Style::Lines, {}, {5});
  EXPECT_NE(Text.find("1/20 evaluations, nothing valid yet"), std::string::npos)
      << Text;
}

TEST(ProgressTest, RedrawRewritesOneLineAndEndsIt) {
  std::string Text = run(Progress::Style::Redraw, {}, {0, 1, 2});
  // The first evaluation draws; the next two come within a tenth of a
  // second and wait for the end.
  EXPECT_TRUE(llvm::StringRef(Text).starts_with(
      "\rmetacu tune: 1/20 evaluations, best 20.000 ms (evaluation 1, 0 "
      "since), about 19s left\x1b[K\r"))
      << Text;
  EXPECT_TRUE(llvm::StringRef(Text).ends_with(
      "\rmetacu tune: 3/20 evaluations, best 18.000 ms (evaluation 3, 0 "
      "since)\x1b[K\n"))
      << Text;
  EXPECT_EQ(Text.find('\n'), Text.size() - 1);
}

TEST(ProgressTest, Durations) {
  EXPECT_EQ(Progress::formatDuration(0.4), "0s");
  EXPECT_EQ(Progress::formatDuration(45), "45s");
  EXPECT_EQ(Progress::formatDuration(130), "2m10s");
  EXPECT_EQ(Progress::formatDuration(3900), "1h05m");
}
