//===- ReplayMode.h - `metacu tune --replay`: a strategy on recorded times ===//
//
// Runs a strategy against a Kernel Tuner cache file instead of a GPU, and
// says how well it did: the best configuration found, and after how many
// evaluations it came within 1% and 2% of the best recorded one. This is
// how strategies are developed and compared (scripts/bench-tune-replay).
// The replay mode is this whole run; the replay runner
// (runners/ReplayRunner.h) is the part that answers each evaluation.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_REPLAYMODE_H
#define METACU_TUNE_REPLAYMODE_H

#include "Outputs.h"
#include "RunInfo.h"
#include "SearchSpace.h"
#include "Tuner.h"
#include "runners/ReplayRunner.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>

namespace metacu::tune {

struct ReplayOptions {
  /// A Kernel Tuner cache file, plain or gzip-compressed.
  std::string CachePath;
  /// Empty for the default strategy.
  std::string Strategy;
  uint64_t Seed = 1;
  Budget Limit;
  /// What the model predicts of the cache's configurations (a predictions
  /// file, Predictions.h), for the strategies that use it; none when empty.
  std::string PredictionsPath;
  /// The files to write; its journal is resumed from and appended to.
  RunOutputs Outputs;
  /// The architecture the recorded times stand for (for the tuning file
  /// and the report); a cache records only a device name.
  std::string Arch;
  /// Told of each evaluation (progress); none when null.
  EvaluationListener *Listener = nullptr;
  /// Run in rounds as on a GPU, costed by this model; none: one
  /// configuration at a time, each costing what it did when recorded.
  std::optional<RoundModel> Rounds;
};

struct ReplayResult {
  /// The kernel, the cache's device, its objective, the budget; the source
  /// is the cache file.
  RunInfo Info;
  /// The recorded configurations.
  SearchSpace Space;
  size_t ValidConfigs = 0;
  /// The best recorded configuration, if any is valid.
  std::optional<uint32_t> Optimum;
  double OptimumObjective = 0;
  TuneResult Run;
  /// The objective of Run.Best.
  double BestObjective = 0;
  /// Seconds on the replay's clock: what the evaluations cost when they
  /// were recorded, or the round model's wall clock.
  double SimulatedSeconds = 0;
  /// The round model the replay ran under, if any.
  std::optional<RoundModel> Rounds;

  /// The first evaluation after which the best so far was within
  /// \p Fraction of the optimum (0.01 for 1%), if any.
  const Evaluation *firstWithin(double Fraction) const;
  /// Its 1-based number.
  std::optional<size_t> evaluationsToWithin(double Fraction) const;
};

/// The replay itself: the strategy against the cache, no output written.
llvm::Expected<ReplayResult> replay(const ReplayOptions &Options);

/// `metacu tune --replay`: checks the outputs, replays (progress on stderr
/// unless \p Quiet), prints the summary on stdout and writes the outputs.
llvm::Error runReplayMode(ReplayOptions Options, bool Quiet);

/// The summary table printed at the end of a replay, with the \p Top best
/// configurations.
void printReplaySummary(llvm::raw_ostream &OS, const ReplayResult &R,
                        unsigned Top);

} // namespace metacu::tune

#endif
