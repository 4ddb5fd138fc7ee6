//===- ModelGuided.cpp - Measure what the model ranks best, correcting it -===//
//
// The `model` strategy: metacu report's phase model predicts every
// candidate's time from its generated code before anything runs
// (Predictions.h). Candidates that cannot launch or did not build are never
// measured; those that spill come after every other one. The rest are
// measured from the predicted fastest down, and after each round the
// ranking is corrected by what the measurements taught.
//
// The correction: the model gets the large effects right (occupancy, waves,
// instructions and bytes per thread) and misses effects that follow
// parameter values (a padded row misaligns vector loads; a tile width
// causes bank conflicts). So the log of measured over predicted time is
// fitted as a constant plus one term per parameter value (ridge least
// squares on the configurations measured so far, shrunk towards no
// correction while few have been measured) and every unmeasured
// configuration is re-ranked by its predicted time times that correction.
// A value the measurements found slow sinks everything that uses it; one
// found fast lifts its configurations, so the search moves to where the
// model was too pessimistic. Nothing here is random: a run is the same for
// every seed.
//
//===----------------------------------------------------------------------===//
#include "Strategy.h"

#include "../Predictions.h"

#include "llvm/ADT/STLExtras.h"
#include <cmath>
#include <numeric>

using namespace metacu::tune;

namespace {

/// Which configurations are measured in which order of preference.
enum class Tier {
  Promising, // builds, launches, does not spill
  Unknown,   // nothing was predicted of it
  Spills,    // launches, but ptxas spilled registers
  Never,     // does not build or cannot launch
};

Tier tierOf(const std::optional<Predicted> &P) {
  if (!P)
    return Tier::Unknown;
  if (!P->Builds || P->BlocksPerSM == 0 || !P->TimeUs)
    return Tier::Never;
  return P->promising() ? Tier::Promising : Tier::Spills;
}

/// Solves A x = b (n x n, row-major) by Gaussian elimination with partial
/// pivoting; A is symmetric positive definite here (ridge), so it has a
/// solution.
std::vector<double> solve(std::vector<double> A, std::vector<double> B) {
  size_t N = B.size();
  for (size_t Col = 0; Col < N; ++Col) {
    size_t Pivot = Col;
    for (size_t Row = Col + 1; Row < N; ++Row)
      if (std::fabs(A[Row * N + Col]) > std::fabs(A[Pivot * N + Col]))
        Pivot = Row;
    if (Pivot != Col) {
      for (size_t K = 0; K < N; ++K)
        std::swap(A[Col * N + K], A[Pivot * N + K]);
      std::swap(B[Col], B[Pivot]);
    }
    double D = A[Col * N + Col];
    for (size_t Row = Col + 1; Row < N; ++Row) {
      double F = A[Row * N + Col] / D;
      if (F == 0)
        continue;
      for (size_t K = Col; K < N; ++K)
        A[Row * N + K] -= F * A[Col * N + K];
      B[Row] -= F * B[Col];
    }
  }
  std::vector<double> X(N);
  for (size_t Row = N; Row-- > 0;) {
    double S = B[Row];
    for (size_t K = Row + 1; K < N; ++K)
      S -= A[Row * N + K] * X[K];
    X[Row] = S / A[Row * N + Row];
  }
  return X;
}

class ModelGuided : public Strategy {
public:
  void search(Evaluator &E, Random &) override {
    const SearchSpace &Space = E.space();
    const Predictions &P = *E.options().Predicted;
    // One feature per value of each parameter, after the constant.
    Offsets.assign(1, 1);
    for (const Parameter &Param : Space.parameters())
      Offsets.push_back(Offsets.back() + Param.Values.size());

    std::vector<uint32_t> Order[3];
    for (uint32_t I = 0; I < Space.size(); ++I) {
      Tier T = tierOf(P.of(I));
      if (T != Tier::Never)
        Order[unsigned(T)].push_back(I);
    }
    size_t Batch = std::max(1u, E.batchSize());
    unsigned Round = 0;
    for (std::vector<uint32_t> &Candidates : Order) {
      while (!E.done()) {
        llvm::erase_if(Candidates, [&](uint32_t C) { return E.known(C); });
        if (Candidates.empty())
          break;
        std::vector<double> Correction = fit(E, P);
        auto Score = [&](uint32_t C) {
          const std::optional<Predicted> &Pred = P.of(C);
          // An unknown configuration has only the correction to go by.
          double Base = Pred ? std::log(*Pred->TimeUs) : 0;
          return Base + correction(Space.config(C), Correction);
        };
        std::vector<std::pair<double, uint32_t>> Ranked;
        for (uint32_t C : Candidates)
          Ranked.emplace_back(Score(C), C);
        llvm::sort(Ranked);
        std::vector<uint32_t> Next;
        // Every other round (or one slot of a larger batch) explores.
        if (Batch > 1 || Round % 2 == 1)
          if (std::optional<uint32_t> X = explore(E, Ranked))
            Next.push_back(*X);
        for (const auto &[S, C] : Ranked) {
          if (Next.size() == std::min(Batch, Ranked.size()))
            break;
          if (!llvm::is_contained(Next, C))
            Next.push_back(C);
        }
        E.evaluate(Next);
        ++Round;
      }
    }
  }

private:
  /// The best-ranked candidate that differs from the best configuration
  /// measured so far in one parameter, taking a value of it that no valid
  /// measurement has had yet: the correction knows nothing of such a value
  /// and can only learn it by measuring one, best where the search is.
  std::optional<uint32_t>
  explore(const Evaluator &E,
          llvm::ArrayRef<std::pair<double, uint32_t>> Ranked) const {
    std::optional<uint32_t> Best = E.best();
    if (!Best)
      return std::nullopt;
    const SearchSpace &Space = E.space();
    std::vector<bool> Seen(Offsets.back(), false);
    for (const Evaluation &Ev : E.trace()) {
      if (!Ev.M.valid())
        continue;
      Config C = Space.config(Ev.Config);
      for (size_t Param = 0; Param < C.size(); ++Param)
        Seen[Offsets[Param] + C[Param]] = true;
    }
    Config B = Space.config(*Best);
    for (const auto &[S, C] : Ranked) {
      Config X = Space.config(C);
      unsigned Differ = 0;
      bool New = false;
      for (size_t Param = 0; Param < X.size(); ++Param)
        if (X[Param] != B[Param]) {
          ++Differ;
          New = !Seen[Offsets[Param] + X[Param]];
        }
      if (Differ == 1 && New)
        return C;
    }
    return std::nullopt;
  }

  /// How strongly the per-value terms are pulled towards 0, against the
  /// squared log error of one measurement: with a handful of measurements
  /// the ranking is mostly the model's; a value's term needs several
  /// measurements that agree before it moves the ranking much.
  static constexpr double Ridge = 1.0;

  double correction(const Config &C, llvm::ArrayRef<double> W) const {
    double S = W[0];
    for (size_t Param = 0; Param < C.size(); ++Param)
      S += W[Offsets[Param] + C[Param]];
    return S;
  }

  /// The log of measured over predicted time of a measured configuration,
  /// if both are known and positive.
  static std::optional<double> residual(const Evaluator &E, uint32_t C,
                                        const Predictions &P) {
    Cost K = E.cost(C);
    const std::optional<Predicted> &Pred = P.of(C);
    if (!K.valid() || !Pred || !Pred->TimeUs || K.Value == 0)
      return std::nullopt;
    // A maximised rate is work over time: its cost is -rate, and log time
    // is -log rate up to a constant the fit's constant absorbs.
    double LogTime = E.options().Objective.Maximize ? -std::log(-K.Value)
                                                    : std::log(K.Value);
    if (!std::isfinite(LogTime))
      return std::nullopt;
    return LogTime - std::log(*Pred->TimeUs);
  }

  /// Ridge least squares of the residuals on one-hot parameter values; the
  /// constant is not shrunk.
  std::vector<double> fit(const Evaluator &E, const Predictions &P) const {
    size_t N = Offsets.back();
    std::vector<double> A(N * N, 0), B(N, 0);
    for (size_t I = 1; I < N; ++I)
      A[I * N + I] = Ridge;
    size_t Used = 0;
    for (const Evaluation &Ev : E.trace()) {
      std::optional<double> R = residual(E, Ev.Config, P);
      if (!R)
        continue;
      ++Used;
      Config C = E.space().config(Ev.Config);
      llvm::SmallVector<size_t, 12> Active{0};
      for (size_t Param = 0; Param < C.size(); ++Param)
        Active.push_back(Offsets[Param] + C[Param]);
      for (size_t X : Active) {
        B[X] += *R;
        for (size_t Y : Active)
          A[X * N + Y] += 1;
      }
    }
    if (!Used)
      return std::vector<double>(N, 0);
    return solve(std::move(A), std::move(B));
  }

  /// Where each parameter's value terms start in the feature vector.
  std::vector<size_t> Offsets;
};

} // namespace

std::unique_ptr<Strategy> metacu::tune::createModelGuided() {
  return std::make_unique<ModelGuided>();
}
