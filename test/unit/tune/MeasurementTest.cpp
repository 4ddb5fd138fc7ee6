//===- MeasurementTest.cpp - Outcomes, metrics and their spellings --------===//
#include "tune/Measurement.h"

#include <cmath>

#include <gtest/gtest.h>

using namespace metacu::tune;

TEST(MeasurementTest, MetricsFromKernelTunerObjectives) {
  Metric Time = Metric::fromObjective("time");
  EXPECT_EQ(Time.Unit, "ms");
  EXPECT_FALSE(Time.Maximize);
  EXPECT_TRUE(Time.better(0.5, 0.6));
  EXPECT_FALSE(Time.better(0.5, 0.5));
  EXPECT_EQ(Time.direction(), "min");

  Metric Rate = Metric::fromObjective("GFLOP/s");
  EXPECT_EQ(Rate.Unit, "GFLOP/s");
  EXPECT_TRUE(Rate.Maximize);
  EXPECT_TRUE(Rate.better(2, 1));
  EXPECT_EQ(Rate.direction(), "max");

  Metric Other = Metric::fromObjective("energy");
  EXPECT_EQ(Other.Unit, "");
  EXPECT_FALSE(Other.Maximize);
}

TEST(MeasurementTest, FormatKeepsFiveSignificantDigits) {
  Metric Time;
  EXPECT_EQ(Time.format(0.51234), "0.51234 ms");
  EXPECT_EQ(Time.format(0.0123456), "0.012346 ms");
  EXPECT_EQ(Time.format(12.3456), "12.346 ms");
  EXPECT_EQ(Time.format(1.0, false), "1.0000");
  EXPECT_EQ(Metric::fromObjective("GFLOP/s").format(47213.4), "47213 GFLOP/s");
  EXPECT_EQ(Time.format(0), "0.0000 ms");
}

TEST(MeasurementTest, OnlyPositiveFiniteTimesAndRatesAreMeasured) {
  Metric Time = Metric::fromObjective("time");
  Metric Rate = Metric::fromObjective("GB/s");
  EXPECT_EQ(Time.whyNotMeasured(0.5), "");
  EXPECT_EQ(Rate.whyNotMeasured(900), "");
  for (double V : {0.0, -1.0, double(HUGE_VAL), double(NAN)})
    EXPECT_NE(Time.whyNotMeasured(V), "") << V;
  EXPECT_NE(Rate.whyNotMeasured(HUGE_VAL), "");
  EXPECT_NE(Rate.whyNotMeasured(0), "");
  // An objective of another kind may be 0 or negative, never infinite.
  Metric Other = Metric::fromObjective("score");
  EXPECT_EQ(Other.whyNotMeasured(-3), "");
  EXPECT_NE(Other.whyNotMeasured(-HUGE_VAL), "");
}
