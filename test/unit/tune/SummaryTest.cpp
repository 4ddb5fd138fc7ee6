//===- SummaryTest.cpp - Rankings, best so far, invalid groups, table -----===//
#include "tune/Summary.h"

#include <gtest/gtest.h>

using namespace metacu::tune;

namespace {

Evaluation valid(uint32_t Config, double Objective) {
  Evaluation E;
  E.Config = Config;
  E.M.Objective = Objective;
  return E;
}

Evaluation invalid(uint32_t Config, Validity V, std::string Reason) {
  Evaluation E;
  E.Config = Config;
  E.M.Status = V;
  E.M.Reason = std::move(Reason);
  return E;
}

/// bx in {16, 32, 64}, tile in {1, 2}: configuration index 2*bx + tile.
SearchSpace space() {
  std::vector<Parameter> Params{
      {"bx", {Value::integer(16), Value::integer(32), Value::integer(64)}},
      {"tile", {Value::integer(1), Value::integer(2)}}};
  return llvm::cantFail(SearchSpace::restricted(
      Params, [](llvm::ArrayRef<uint32_t>) { return true; }));
}

std::vector<Evaluation> trace() {
  return {invalid(0, Validity::Compile,
                  "ptxas error: too many registers\n"
                  "  in function conv"),
          valid(1, 3.0),
          valid(2, 2.0),
          invalid(3, Validity::Compile, "ptxas error: too many registers"),
          valid(4, 2.0),
          invalid(5, Validity::Runtime, ""),
          valid(1, 1.5)};
}

} // namespace

TEST(SummaryTest, RanksValidEvaluationsBestFirstKeepingTheOrderOfTies) {
  EXPECT_EQ(rankValid(trace(), Metric()), (std::vector<size_t>{6, 2, 4, 1}));
  EXPECT_EQ(rankValid(trace(), Metric::fromObjective("GFLOP/s")),
            (std::vector<size_t>{1, 2, 4, 6}));
}

TEST(SummaryTest, BestSoFarStartsAtTheFirstValidEvaluation) {
  auto Best = bestSoFar(trace(), Metric());
  ASSERT_EQ(Best.size(), 7u);
  EXPECT_FALSE(Best[0].has_value());
  EXPECT_EQ(Best[1], 3.0);
  EXPECT_EQ(Best[3], 2.0);
  EXPECT_EQ(Best[5], 2.0);
  EXPECT_EQ(Best[6], 1.5);
}

TEST(SummaryTest, InvalidEvaluationsGroupByKindAndFirstLineOfTheReason) {
  auto Groups = invalidGroups(trace());
  ASSERT_EQ(Groups.size(), 2u);
  EXPECT_EQ(Groups[0].Status, Validity::Compile);
  EXPECT_EQ(Groups[0].Count, 2u);
  ASSERT_EQ(Groups[0].Reasons.size(), 1u);
  EXPECT_EQ(Groups[0].Reasons[0].first, "ptxas error: too many registers");
  EXPECT_EQ(Groups[0].Reasons[0].second, 2u);
  EXPECT_EQ(Groups[1].Status, Validity::Runtime);
  EXPECT_EQ(Groups[1].Count, 1u);
  EXPECT_TRUE(Groups[1].Reasons.empty());
}

TEST(SummaryTest, FormatChangeHasASign) {
  EXPECT_EQ(formatChange(1.5, 1.0), "+50.00%");
  EXPECT_EQ(formatChange(0.9, 1.0), "-10.00%");
  EXPECT_EQ(formatChange(1.0, 1.0), "+0.00%");
}

TEST(SummaryTest, PrintsRowsBestTopTableAndInvalidReasons) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printSummary(OS, {{"strategy", "ils, seed 3"}}, space(), trace(), Metric(),
               2);
  EXPECT_NE(Text.find("  strategy               ils, seed 3\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("best configuration     bx=16 tile=2\n"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("best time              1.5000 ms (evaluation 7)"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("top 2 of 4 valid configurations\n"
                      "   rank  time (ms)  vs best  eval  bx  tile\n"
                      "      1     1.5000              7  16  2\n"
                      "      2     2.0000  +33.33%     3  32  1\n"
                      "invalid: 3 of 7 evaluations\n"
                      "  compile          2  ptxas error: too many registers "
                      "(2)\n"
                      "  runtime          1\n"),
            std::string::npos)
      << Text;
}

TEST(SummaryTest, ManyReasonsAreCutShort) {
  std::vector<Evaluation> Trace;
  for (uint32_t I = 0; I < 5; ++I)
    Trace.push_back(
        invalid(I, Validity::Runtime, "error " + std::to_string(I % 5)));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  printSummary(OS, {}, space(), Trace, Metric(), 10);
  EXPECT_NE(Text.find("no valid configuration found"), std::string::npos);
  EXPECT_NE(Text.find("error 2 (1)\n"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("error 3 (1)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("and 2 other reasons\n"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("top "), std::string::npos) << Text;
}
