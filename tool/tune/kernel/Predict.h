//===- Predict.h - The model's predictions of a kernel's candidates -------===//
//
// What `metacu report` says of every candidate of a declared space, from
// the candidates' generated code and no GPU: candidates are expanded in
// batches (one expansion each, as the GPU runner does), in a seeded random
// order so that a run stopped early has predicted a uniform sample, each
// batch is
// compiled once to PTX and once by ptxas (report::buildForArchs), batches
// in parallel over the cores, and the report's rows give each candidate's
// resources, occupancy at its declared launch (tune_space::launch) and
// predicted time. The model-guided strategy ranks by these.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_KERNEL_PREDICT_H
#define METACU_TUNE_KERNEL_PREDICT_H

#include "tune/Predictions.h"
#include "tune/kernel/KernelSource.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <functional>
#include <string>

namespace metacu::tune {

struct PredictOptions {
  /// The GPU the results are for: its limits and reference device.
  Arch Target;
  /// The architectures the candidates are expanded for: Target's, or an
  /// older image's.
  ArchList ExpandFor;
  /// "compute_80" when an older image's PTX runs on Target (assembled for
  /// it, as -gencode arch=compute_80,code=sm_90 does); empty: Target's own.
  std::string PtxArch;
  std::string Nvcc;
  /// Candidates per expansion and translation unit.
  unsigned BatchSize = 32;
  /// Translation units compiled at once.
  unsigned Jobs = 1;
  /// Where the batches' builds are kept and found again (report/BuildCache):
  /// predicting the same candidates again costs their expansion alone.
  std::string CacheDir;
  /// Told after each batch: configurations predicted, of how many.
  llvm::function_ref<void(size_t, size_t)> Progress = nullptr;
  /// Configurations are predicted in an order shuffled with this seed, so
  /// that what a stopped run has predicted is a uniform random sample of
  /// the space.
  uint64_t Seed = 1;
  /// Told after each round what is predicted so far (a file written as it
  /// goes); an error stops the run.
  std::function<llvm::Error(const Predictions &)> AfterRound;
};

/// Predictions for every configuration of \p Space (K.Declared's), in
/// P.Seed's order. A
/// candidate that does not expand or compile is predicted not to build
/// (found by splitting a failing batch); the space must declare its
/// launch.
llvm::Expected<Predictions> predictSpace(const KernelSource &K,
                                         const SearchSpace &Space,
                                         const PipelineOptions &Opts,
                                         const PredictOptions &P);

} // namespace metacu::tune

#endif
