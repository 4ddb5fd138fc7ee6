//===- SizesTest.cpp - Tuning per problem size ----------------------------===//
#include "tune/Sizes.h"

#include <gtest/gtest.h>

using namespace metacu::tune;

namespace {

Measurement rate(double GBs) {
  Measurement M;
  M.Objective = GBs;
  M.Times = {1.0};
  return M;
}

Measurement wrong() {
  Measurement M;
  M.Status = Validity::Correctness;
  M.Reason = "largest error 1 above the tolerance 0";
  return M;
}

Metric gbs() {
  Metric M = Metric::fromObjective("GB/s");
  M.Maximize = true;
  return M;
}

/// Runs at \p Sizes, \p Objective[K][C] configuration C's objective at size
/// K (negative: wrong there).
std::vector<SizeRun> runs(std::vector<std::vector<int64_t>> Sizes,
                          std::vector<std::vector<double>> Objective) {
  std::vector<SizeRun> Out;
  for (size_t K = 0; K < Sizes.size(); ++K) {
    SizeRun R;
    R.Size = Sizes[K];
    for (uint32_t C = 0; C < Objective[K].size(); ++C)
      R.Run.Trace.push_back(
          {C, Objective[K][C] < 0 ? wrong() : rate(Objective[K][C])});
    Out.push_back(std::move(R));
  }
  return Out;
}

} // namespace

TEST(SizesTest, RangesMeetAtTheGeometricMiddle) {
  auto R = servedRanges({{4096}, {1024}, {16384}});
  ASSERT_TRUE(R);
  // In the order given: 4096 serves 2048..8191, 1024 everything below.
  EXPECT_EQ((*R)[1].From, 1);
  EXPECT_EQ((*R)[1].To, 2047);
  EXPECT_EQ((*R)[0].From, 2048);
  EXPECT_EQ((*R)[0].To, 8191);
  EXPECT_EQ((*R)[2].From, 8192);
  EXPECT_FALSE((*R)[2].To);
  // Not a power of two: 1000 and 3000 meet at 1732.05.
  auto Odd = servedRanges({{1000}, {3000}});
  EXPECT_EQ((*Odd)[0].To, 1732);
  EXPECT_EQ((*Odd)[1].From, 1733);
}

TEST(SizesTest, ShapesHaveNoRanges) {
  EXPECT_FALSE(servedRanges({{1024, 1024}, {4096, 256}}));
}

TEST(SizesTest, TheSingleEntryIsTheBestEverywhereOnAverage) {
  // Configuration 0 is best small, 2 best large; 1 is never best but close
  // everywhere; 3 is wrong at the small size, so it cannot serve it.
  auto Runs = runs({{65536}, {1024}}, {{10, 90, 100, 200}, {100, 90, 50, -1}});
  SizeAnalysis A = analyseSizes(gbs(), Runs);
  ASSERT_EQ(A.Rows.size(), 2u);
  // Ascending by size.
  EXPECT_EQ(A.Rows[0].Size, std::vector<int64_t>{1024});
  EXPECT_EQ(A.Rows[0].Best, 0u);
  EXPECT_EQ(A.Rows[0].BestObjective, 100);
  EXPECT_EQ(A.Rows[1].Best, 3u);
  EXPECT_EQ(A.Rows[0].Serves->To, 8191);
  // 1 keeps 0.9 and 0.45 of the best, 2 keeps 0.5 and 0.5: 1 wins.
  ASSERT_TRUE(A.Single);
  EXPECT_EQ(*A.Single, 1u);
  EXPECT_EQ(*A.Rows[1].SingleObjective, 90);
  EXPECT_NEAR(A.MeanLoss, 1 - std::sqrt(0.9 * 0.45), 1e-12);
  EXPECT_NEAR(A.WorstLoss, 0.55, 1e-12);
  EXPECT_EQ(A.WorstRow, 1u);
}

TEST(SizesTest, NoConfigurationValidEverywhereMeansNoSingleEntry) {
  auto Runs = runs({{1024}, {4096}}, {{10, -1}, {-1, 10}});
  SizeAnalysis A = analyseSizes(gbs(), Runs);
  EXPECT_FALSE(A.Single);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  SearchSpace Space = llvm::cantFail(SearchSpace::restricted(
      {{"block", {Value::integer(32), Value::integer(64)}}},
      [](llvm::ArrayRef<uint32_t>) { return true; }));
  printSizeTable(OS, Space, gbs(), A);
  EXPECT_NE(Text.find("no configuration is valid at every size"),
            std::string::npos)
      << Text;
}

TEST(SizesTest, EntriesAreKeyedByArchitectureAndSize) {
  auto Runs = runs({{1024}, {4096}, {16384}}, {{10, 20}, {30, 5}, {-1, -1}});
  SearchSpace Space = llvm::cantFail(SearchSpace::restricted(
      {{"block", {Value::integer(32), Value::integer(64)}}},
      [](llvm::ArrayRef<uint32_t>) { return true; }));
  RunInfo Info;
  Info.Where = {"sm_90", "H100"};
  Info.Objective = gbs();
  auto Entries = llvm::cantFail(sizeEntries(Info, Space, Runs));
  // The size no configuration ran at has no entry: its neighbours serve it.
  ASSERT_EQ(Entries.size(), 2u);
  EXPECT_EQ(Entries[0].first, "sm_90@1024");
  EXPECT_EQ(Entries[0].second.Params["block"], 64);
  EXPECT_EQ(Entries[1].first, "sm_90@4096");
  EXPECT_EQ(Entries[1].second.Params["block"], 32);
}

TEST(SizesTest, RunsPerSizeFromABundle) {
  BundleResults B;
  B.Declared.Sizes = {{1024}, {4096}};
  B.Declared.Objective = gbs();
  B.Options.Strategy = "brute_force";
  B.Results = {{0, rate(1)}, {1, rate(2)}};
  B.PerSize = {{rate(1), rate(5)}, {rate(2), wrong()}};
  std::vector<SizeRun> Runs = sizeRuns(B);
  ASSERT_EQ(Runs.size(), 2u);
  EXPECT_EQ(Runs[1].Size, std::vector<int64_t>{4096});
  EXPECT_EQ(Runs[0].Run.Best, 1u);
  EXPECT_EQ(Runs[1].Run.Best, 0u);
  EXPECT_FALSE(Runs[1].Run.Trace[1].M.valid());
  EXPECT_EQ(Runs[1].Run.Strategy, "brute_force");
}
