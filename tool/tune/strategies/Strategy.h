//===- Strategy.h - How a tuning run chooses what to measure --------------===//
//
// A strategy walks the search space by asking the evaluator for costs; the
// evaluator owns the budget and the measurements, so a strategy is only the
// order of questions. Each strategy lives in its own file and is found by
// name here. All randomness comes from the Random given, so a run repeats
// exactly for a seed.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_STRATEGIES_STRATEGY_H
#define METACU_TUNE_STRATEGIES_STRATEGY_H

#include "../Evaluator.h"
#include "../Random.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace metacu::tune {

class Strategy {
public:
  virtual ~Strategy();
  /// Evaluates configurations through \p E until E.done(). Must end: every
  /// round either evaluates a new configuration or stops.
  virtual void search(Evaluator &E, Random &R) = 0;
};

struct StrategyInfo {
  llvm::StringRef Name;
  llvm::StringRef Summary;
  std::unique_ptr<Strategy> (*Create)();
  /// It ranks configurations by the model's predictions, which the run must
  /// then have (EvaluatorOptions::Predicted).
  bool NeedsPredictions = false;
  /// What it chooses depends on what it measured: it cannot choose a
  /// bundle's fixed set of candidates ahead of the measurements.
  bool Adaptive = true;
};

/// Every strategy, the default first.
llvm::ArrayRef<StrategyInfo> strategies();
const StrategyInfo *findStrategy(llvm::StringRef Name);
/// The strategy that does best on the recorded spaces (docs/tune.md).
llvm::StringRef defaultStrategy();

/// One factory per strategy file.
std::unique_ptr<Strategy> createIteratedLocalSearch();
std::unique_ptr<Strategy> createBruteForce();
std::unique_ptr<Strategy> createRandomSample();
std::unique_ptr<Strategy> createMultiStartLocalSearch();
std::unique_ptr<Strategy> createGreedyILS();
std::unique_ptr<Strategy> createModelGuided();

} // namespace metacu::tune

#endif
