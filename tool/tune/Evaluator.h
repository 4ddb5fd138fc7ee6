//===- Evaluator.h - The cost function strategies search ------------------===//
//
// Between a strategy and a runner: strategies ask for the cost of
// configurations, the evaluator measures each configuration at most once,
// counts unique evaluations (invalid ones included) against the budget,
// answers repeated questions from memory for free, replays what a journal of
// an interrupted run already measured, and records every evaluation in
// order for the result files.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_EVALUATOR_H
#define METACU_TUNE_EVALUATOR_H

#include "Journal.h"
#include "Measurement.h"
#include "SearchSpace.h"
#include "runners/Runner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace metacu::tune {

class Predictions;

/// What a strategy sees of an evaluation: lower is better.
struct Cost {
  /// +infinity for an invalid configuration.
  double Value = std::numeric_limits<double>::infinity();
  /// False when the budget ran out before the configuration was measured.
  bool Evaluated = false;

  bool valid() const {
    return Evaluated && Value != std::numeric_limits<double>::infinity();
  }
};

/// One evaluation of a run, in the order evaluations completed.
struct Evaluation {
  uint32_t Config = 0;
  Measurement M;
  /// Answered from the journal of an earlier run, not measured again.
  bool Resumed = false;
  /// On the runner's clock, since the run started.
  double Seconds = 0;
  /// Which call to the runner (a round on the GPU) measured it, from 1; 0
  /// when answered from the journal.
  unsigned Round = 0;
};

/// When to stop: whichever limit is reached first.
struct Budget {
  /// Unique configurations evaluated, invalid ones included.
  std::optional<size_t> Evaluations;
  /// On the runner's clock.
  std::optional<double> Seconds;
};

class Evaluator;

/// Follows a run as it goes, e.g. to show progress. runTuning() calls
/// started() and finished() around the search; the evaluator calls
/// evaluated() as each evaluation is recorded, resumed ones included.
class EvaluationListener {
public:
  virtual ~EvaluationListener();
  virtual void started(const Evaluator &E) {}
  virtual void evaluated(const Evaluator &E, const Evaluation &Last) = 0;
  virtual void finished(const Evaluator &E) {}
};

struct EvaluatorOptions {
  Budget Limit;
  /// Which way is better (GFLOP/s is maximised), and how to show it.
  Metric Objective;
  /// Answers configurations an earlier run measured and keeps new ones;
  /// none when null.
  tune::Journal *Journal = nullptr;
  /// Told of each evaluation; none when null.
  EvaluationListener *Listener = nullptr;
  /// What the model predicts of each configuration, for the strategies
  /// that use it; none when null.
  const Predictions *Predicted = nullptr;
};

class Evaluator {
public:
  Evaluator(const SearchSpace &Space, Runner &R, EvaluatorOptions Options);
  ~Evaluator();
  Evaluator(const Evaluator &) = delete;
  Evaluator &operator=(const Evaluator &) = delete;

  const SearchSpace &space() const { return Space; }
  const EvaluatorOptions &options() const { return Options; }
  /// How many configurations the runner takes at once with profit.
  unsigned batchSize() const { return R.preferredBatch(); }
  /// How many configurations a round should hold to keep the runner busy:
  /// the runner's round size (Runner::roundSize), between 1 and
  /// batchSize(), but no more than the GPU times in what the rest of a
  /// round costs, as measured so far. Up to the cores, another
  /// configuration costs a round no more wall clock while the GPU keeps up
  /// with the compiles; beyond that each costs its GPU time (a kernel
  /// timed for 5 s costs a round of 16 as much as 10 rounds' fixed parts).
  unsigned roundSize() const;

  /// The costs of \p Configs, in the same order. Those not evaluated
  /// before are measured together, in order, as far as the budget allows;
  /// the rest come back not Evaluated.
  std::vector<Cost> evaluate(llvm::ArrayRef<uint32_t> Configs);
  Cost evaluate(uint32_t Config) { return evaluate(llvm::ArrayRef(Config))[0]; }

  /// Whether \p Config has been evaluated (asking again is free).
  bool known(uint32_t Config) const { return Costs[Config].Evaluated; }
  Cost cost(uint32_t Config) const { return Costs[Config]; }

  /// True once a limit is reached, every configuration has been evaluated,
  /// or the runner failed: strategies stop when they see it.
  bool done() const;
  size_t evaluations() const { return Trace.size(); }
  /// Calls to the runner so far: rounds, on the GPU.
  unsigned rounds() const { return Rounds; }
  /// The best valid configuration so far.
  std::optional<uint32_t> best() const { return Best; }
  llvm::ArrayRef<Evaluation> trace() const { return Trace; }
  /// The runner's or the journal's failure, if one stopped the run.
  llvm::Error takeError() { return std::move(Failure); }

private:
  bool timeUp() const;
  void fail(llvm::Error E);
  void record(uint32_t Config, Measurement M, bool Resumed);

  const SearchSpace &Space;
  Runner &R;
  EvaluatorOptions Options;
  double Start;
  std::vector<Cost> Costs;
  std::vector<Evaluation> Trace;
  std::optional<uint32_t> Best;
  unsigned Rounds = 0;
  /// What the rounds measured so far took: their wall clock on the
  /// runner's clock, the GPU's share of it (benchmark and verification),
  /// and how many configurations they measured.
  double RoundSeconds = 0, RoundGpuSeconds = 0;
  size_t RoundConfigs = 0;
  llvm::Error Failure = llvm::Error::success();
  bool Failed = false;
};

} // namespace metacu::tune

#endif
