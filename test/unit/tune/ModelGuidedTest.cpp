//===- ModelGuidedTest.cpp - The model strategy on the bowl ---------------===//
//
// The bowl (TuneTestData.h) replayed with synthetic predictions: what the
// strategy measures, in which order, and what it never measures.
//
//===----------------------------------------------------------------------===//
#include "FakeRunner.h"
#include "TuneTestData.h"
#include "tune/Predictions.h"
#include "tune/Tuner.h"

#include "llvm/ADT/DenseSet.h"
#include <cmath>
#include <gtest/gtest.h>
#include <set>

using namespace metacu;
using namespace metacu::tune;

namespace {

/// X, Y, Z of configuration \p I.
struct XYZ {
  int X, Y, Z;
};
XYZ xyz(const SearchSpace &S, uint32_t I) {
  Config C = S.config(I);
  return {int(C[0]) + 1, int(C[1]) + 1, int(C[2])};
}

/// Predictions of \p Time for every configuration; Time may leave one out.
Predictions predict(const SearchSpace &S,
                    std::function<std::optional<Predicted>(XYZ)> Time) {
  Predictions P(S.size());
  for (uint32_t I = 0; I < S.size(); ++I)
    if (auto Pred = Time(xyz(S, I)))
      P.set(I, *Pred);
  return P;
}

Predicted launches(double Us) {
  Predicted P;
  P.BlocksPerSM = 4;
  P.TimeUs = Us;
  return P;
}

TuneResult run(test::Bowl &B, const Predictions &P,
               std::optional<size_t> Budget, uint64_t Seed = 1) {
  TuneOptions O;
  O.Strategy = "model";
  O.Seed = Seed;
  O.Evaluation.Limit.Evaluations = Budget;
  O.Evaluation.Predicted = &P;
  return llvm::cantFail(runTuning(B.Space, *B.Runner, O));
}

std::vector<uint32_t> configs(const TuneResult &R) {
  std::vector<uint32_t> Out;
  for (const Evaluation &E : R.Trace)
    Out.push_back(E.Config);
  return Out;
}

} // namespace

TEST(ModelGuidedTest, AnExactModelIsMeasuredInPredictedOrder) {
  test::Bowl B = test::bowl();
  // Twice the true time: the correction learns a constant, so every
  // evaluation is the best predicted of those not measured yet, or, every
  // other one, an exploration: the best configuration so far with one
  // parameter set to a value no measurement has had.
  Predictions P = predict(B.Space, [](XYZ C) {
    return launches(2 * test::bowlTime(C.X, C.Y, C.Z));
  });
  TuneResult R = run(B, P, 30);
  ASSERT_EQ(R.Trace.size(), 30u);
  EXPECT_EQ(R.Trace.front().Config, B.optimum());
  std::set<std::pair<unsigned, uint32_t>> Seen; // (parameter, value)
  size_t Explored = 0;
  for (size_t I = 0; I < R.Trace.size(); ++I) {
    uint32_t C = R.Trace[I].Config;
    double Lowest = INFINITY;
    for (uint32_t O = 0; O < B.Space.size(); ++O) {
      bool Measured = false;
      for (size_t J = 0; J < I; ++J)
        Measured |= R.Trace[J].Config == O;
      if (!Measured)
        Lowest = std::min(Lowest, *P.of(O)->TimeUs);
    }
    Config X = B.Space.config(C), Best = B.Space.config(B.optimum());
    unsigned Differ = 0;
    bool New = false;
    for (unsigned K = 0; K < X.size(); ++K)
      if (X[K] != Best[K]) {
        ++Differ;
        New = !Seen.count({K, X[K]});
      }
    if (*P.of(C)->TimeUs != Lowest) {
      EXPECT_TRUE(I % 2 == 1 && Differ == 1 && New) << "evaluation " << I;
      ++Explored;
    }
    if (R.Trace[I].M.valid())
      for (unsigned K = 0; K < X.size(); ++K)
        Seen.insert({K, X[K]});
  }
  // x and y have 8 values each, z 2: at most 14 values to explore.
  EXPECT_GT(Explored, 0u);
  EXPECT_LE(Explored, 14u);
}

TEST(ModelGuidedTest, NeverMeasuresWhatCannotLaunchOrBuild) {
  test::Bowl B = test::bowl();
  Predictions P = predict(B.Space, [](XYZ C) -> std::optional<Predicted> {
    Predicted Pred = launches(test::bowlTime(C.X, C.Y, C.Z));
    if (C.X == 5) { // the optimum's column cannot launch
      Pred.BlocksPerSM = 0;
      Pred.TimeUs.reset();
    }
    if (C.X == 4 && C.Y == 3)
      Pred.Builds = false;
    return Pred;
  });
  TuneResult R = run(B, P, std::nullopt);
  size_t Never = 0;
  for (uint32_t I = 0; I < B.Space.size(); ++I) {
    XYZ C = xyz(B.Space, I);
    Never += C.X == 5 || (C.X == 4 && C.Y == 3);
  }
  // Without a budget it measures everything else, then stops.
  EXPECT_EQ(R.Trace.size(), B.Space.size() - Never);
  for (const Evaluation &E : R.Trace) {
    XYZ C = xyz(B.Space, E.Config);
    EXPECT_NE(C.X, 5);
    EXPECT_FALSE(C.X == 4 && C.Y == 3);
  }
}

TEST(ModelGuidedTest, SpillingAndUnpredictedConfigurationsComeLast) {
  test::Bowl B = test::bowl();
  Predictions P = predict(B.Space, [](XYZ C) -> std::optional<Predicted> {
    if (C.Y == 8)
      return std::nullopt; // nothing known
    Predicted Pred = launches(test::bowlTime(C.X, C.Y, C.Z));
    if (C.Y == 3)
      Pred.SpillStoreBytes = 16; // the optimum's row spills
    return Pred;
  });
  TuneResult R = run(B, P, std::nullopt);
  ASSERT_EQ(R.Trace.size(), size_t(test::BowlRecorded));
  // Promising first, then unknown, then spilling.
  auto TierOf = [&](uint32_t I) {
    int Y = xyz(B.Space, I).Y;
    return Y == 8 ? 1 : Y == 3 ? 2 : 0;
  };
  for (size_t I = 1; I < R.Trace.size(); ++I)
    EXPECT_LE(TierOf(R.Trace[I - 1].Config), TierOf(R.Trace[I].Config))
        << "evaluation " << I;
}

TEST(ModelGuidedTest, MeasurementsCorrectAWrongParameterEffect) {
  test::Bowl B = test::bowl();
  // The model thinks z=1 saves 3 ms; it costs 0.5. In the model's order the
  // optimum (z=0, predicted 4 ms) would come after the 9 configurations
  // with z=1 predicted below 4 ms.
  auto Wrong = [](XYZ C) {
    return launches(test::bowlTime(C.X, C.Y, 0) + (C.Z ? 0 : 3));
  };
  Predictions P = predict(B.Space, Wrong);
  size_t Ahead = 0;
  for (uint32_t I = 0; I < B.Space.size(); ++I)
    Ahead += *P.of(I)->TimeUs < *P.of(B.optimum())->TimeUs;
  ASSERT_EQ(Ahead, 9u);
  TuneResult R = run(B, P, 20);
  std::vector<uint32_t> C = configs(R);
  auto At = std::find(C.begin(), C.end(), B.optimum());
  ASSERT_NE(At, C.end());
  EXPECT_LT(size_t(At - C.begin()), Ahead);
}

TEST(ModelGuidedTest, HonoursTheBudgetAndIsTheSameForEverySeed) {
  test::Bowl B = test::bowl();
  Predictions P = predict(B.Space, [](XYZ C) {
    return launches(test::bowlTime(C.X, C.Y, C.Z) * (1 + 0.1 * C.Y));
  });
  TuneResult A = run(B, P, 17, 1);
  test::Bowl B2 = test::bowl();
  TuneResult Other = run(B2, P, 17, 99);
  EXPECT_EQ(A.Trace.size(), 17u);
  std::vector<uint32_t> CA = configs(A);
  EXPECT_EQ(llvm::DenseSet<uint32_t>(CA.begin(), CA.end()).size(), CA.size());
  EXPECT_EQ(CA, configs(Other));
}

TEST(ModelGuidedTest, ProposesTheRunnersBatchAtOnce) {
  test::Bowl B = test::bowl();
  Predictions P = predict(
      B.Space, [](XYZ C) { return launches(test::bowlTime(C.X, C.Y, C.Z)); });
  test::FakeRunner R = test::replayingRunner(B);
  R.Batch = 4;
  TuneOptions O;
  O.Strategy = "model";
  O.Evaluation.Limit.Evaluations = 10;
  O.Evaluation.Predicted = &P;
  TuneResult T = llvm::cantFail(runTuning(B.Space, R, O));
  EXPECT_EQ(T.Trace.size(), 10u);
  ASSERT_GE(R.Batches.size(), 3u);
  EXPECT_EQ(R.Batches[0].size(), 4u);
  EXPECT_EQ(R.Batches[1].size(), 4u);
}

TEST(ModelGuidedTest, WithoutPredictionsTheRunFails) {
  test::Bowl B = test::bowl();
  TuneOptions O;
  O.Strategy = "model";
  O.Evaluation.Limit.Evaluations = 5;
  auto R = runTuning(B.Space, *B.Runner, O);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("predictions"),
            std::string::npos);
}
