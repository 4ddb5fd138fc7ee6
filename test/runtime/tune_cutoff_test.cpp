// The harness's cut of a candidate clearly slower than the best so far
// (metacu/tune.h, harness_options::cutoff): the decision and its option,
// without a GPU (the timing loop that calls it is run on the GPU only).
#include <metacu/tune.h>

#include <gtest/gtest.h>

namespace {

using metacu::tune::clearly_slower;
using metacu::tune::median_of;

TEST(TuneCutoff, CutsOnlyWhenBothFirstRunsAreAboveTheCutoff) {
  // The best median so far is 4 ms; the cutoff 1.25: 5 ms.
  EXPECT_TRUE(clearly_slower({5.5, 6.0}, 4.0, 1.25));
  EXPECT_FALSE(clearly_slower({5.5, 4.9}, 4.0, 1.25)) << "one run within";
  EXPECT_FALSE(clearly_slower({5.5}, 4.0, 1.25)) << "one run is not enough";
  EXPECT_FALSE(clearly_slower({5.5, 6.0}, 0.0, 1.25)) << "no best yet";
  EXPECT_FALSE(clearly_slower({5.5, 6.0}, 4.0, 0.0)) << "cutoff off";
}

TEST(TuneCutoff, MedianIsTheObjectiveMetacuTakes) {
  EXPECT_DOUBLE_EQ(median_of({3.0, 1.0, 2.0}), 2.0);
  EXPECT_DOUBLE_EQ(median_of({4.0, 1.0, 2.0, 3.0}), 2.5);
}

TEST(TuneCutoff, OptionIsReadAndOffByDefault) {
  metacu::tune::harness_options o;
  char prog[] = "harness", flag[] = "--cutoff", value[] = "1.25";
  char *none[] = {prog};
  ASSERT_TRUE(metacu::tune::parse_options(1, none, o));
  EXPECT_EQ(o.cutoff, 0.0);
  char *given[] = {prog, flag, value};
  ASSERT_TRUE(metacu::tune::parse_options(3, given, o));
  EXPECT_DOUBLE_EQ(o.cutoff, 1.25);
  char negative[] = "-1";
  char *bad[] = {prog, flag, negative};
  metacu::tune::harness_options p;
  EXPECT_FALSE(metacu::tune::parse_options(3, bad, p));
}

} // namespace
