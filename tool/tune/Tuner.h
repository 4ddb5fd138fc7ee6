//===- Tuner.h - One tuning run: a strategy against a runner --------------===//
//
// What every mode of `metacu tune` shares: pick the strategy, seed it, run
// it through an evaluator until the budget is spent, and hand back every
// evaluation in order. Replay and the GPU differ only in the runner.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_TUNER_H
#define METACU_TUNE_TUNER_H

#include "Evaluator.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu::tune {

struct TuneOptions {
  /// A name from strategies(); empty for the default.
  std::string Strategy;
  uint64_t Seed = 1;
  EvaluatorOptions Evaluation;
};

struct TuneResult {
  std::string Strategy;
  uint64_t Seed = 0;
  /// Every evaluation, in the order they completed.
  std::vector<Evaluation> Trace;
  /// The best valid configuration, if any was valid.
  std::optional<uint32_t> Best;
};

/// Fails on an unknown strategy, or when the runner or the journal fails
/// (what completed before is in the journal).
llvm::Expected<TuneResult> runTuning(const SearchSpace &Space, Runner &R,
                                     const TuneOptions &Options);

/// The configurations a strategy that does not adapt to its measurements
/// (brute_force, random_sample) chooses, in order, for \p Seed within
/// \p Budget evaluations (0: no limit), proposed \p Batch at a time as a
/// runner of that batch would be asked: the same configurations a run of
/// that strategy measures, so a bundle holds what a run on the GPU with
/// the same seed would. An adaptive strategy is an error.
llvm::Expected<std::vector<uint32_t>>
proposedConfigs(const SearchSpace &Space, llvm::StringRef Strategy,
                uint64_t Seed, size_t Budget, unsigned Batch);

} // namespace metacu::tune

#endif
