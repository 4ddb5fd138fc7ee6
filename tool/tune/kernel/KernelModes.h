//===- KernelModes.h - `metacu tune KERNEL.cu`: a kernel file's modes -----===//
//
// What `metacu tune` does with a kernel's file, one entry point each: the
// whole search on this machine's GPU (runOnGpu), the bundle of the
// two-step flow (emitBundle), and the model's predictions of every
// configuration (writePredictions). Each expands the file once to read its
// declared space, checks its outputs before anything costly starts, and
// writes through Outputs.h (the GPU run) or one file (the other two).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_KERNEL_KERNELMODES_H
#define METACU_TUNE_KERNEL_KERNELMODES_H

#include "expand/Pipeline.h"
#include "tune/Outputs.h"

#include "llvm/Support/Error.h"
#include <optional>
#include <string>

namespace metacu::tune {

struct KernelModeOptions {
  /// The kernel's file, and the space of it to tune (empty: its only one).
  std::string File;
  std::string Kernel;
  /// The architecture the results are for, as one name ("sm_90"), and the
  /// image built for it ("sm_90", or "compute_80": PTX the GPU's driver
  /// compiles); empty: the architecture's own.
  std::string Arch;
  std::string Image;
  /// Candidates per expansion and translation unit; none: the mode's
  /// default (64 for a bundle or a round on the GPU, 32 to predict).
  std::optional<unsigned> BatchSize;
  /// Parallel nvcc processes; 0: every core.
  unsigned Jobs = 0;
  /// Empty: the default strategy (a bundle's default is brute_force).
  std::string Strategy;
  uint64_t Seed = 1;
  Budget Limit;
  /// A predictions file to read instead of predicting (--predictions).
  std::string PredictionsPath;
  /// Where predictions keep their builds (--build-cache); empty: nowhere.
  std::string BuildCacheDir;
  /// The GPU run's rounds go here (default: FILE.tune in the current
  /// folder), and run on these GPUs (run.py's --gpus: "0", "0,1", "all").
  std::string WorkDir;
  std::string Gpus = "0";
  /// --force: a bundle's folder over earlier results or others' files; the
  /// tuning file's entry over a better one.
  bool Force = false;
  /// No progress on stderr.
  bool Quiet = false;
  RunOutputs Outputs;
};

/// The search on this machine's GPU(s): rounds of candidates as bundles in
/// O.WorkDir run by their run.py; the summary on stdout, then the outputs.
llvm::Error runOnGpu(const KernelModeOptions &O, const PipelineOptions &Opts);

/// The bundle of the two-step flow in \p Dir: the candidates a
/// non-adaptive strategy (brute_force, the default, or random_sample with
/// O.Seed within O.Limit) chooses, as a run on the GPU with the same seed
/// would measure them.
llvm::Error emitBundle(const KernelModeOptions &O, const PipelineOptions &Opts,
                       llvm::StringRef Dir);

/// The model's predictions of every configuration, written to \p Path
/// (after every round, so that a stopped run leaves a uniform sample).
llvm::Error writePredictions(const KernelModeOptions &O,
                             const PipelineOptions &Opts, llvm::StringRef Path);

} // namespace metacu::tune

#endif
