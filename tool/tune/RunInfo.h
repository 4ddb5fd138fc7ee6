//===- RunInfo.h - What the outputs of a run say about it -----------------===//
//
// The summary table, the HTML report and the tuning file each describe a
// finished run: which kernel, on which device and architecture, optimising
// what, with which strategy and budget. Replay and the GPU flow fill in one
// RunInfo and hand it, with the search space and the evaluations, to every
// output.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_RUNINFO_H
#define METACU_TUNE_RUNINFO_H

#include "Evaluator.h"
#include "Measurement.h"
#include "runners/Runner.h"

#include "llvm/ADT/StringRef.h"
#include <string>

namespace metacu::tune {

struct RunInfo {
  std::string Kernel;
  /// Target.Arch is empty when a replay was given no --arch.
  Target Where;
  /// The CUDA driver version; empty when unknown (replay).
  std::string Driver;
  Metric Objective;
  Budget Limit;
  /// What answered the evaluations: the cache file of a replay.
  std::string Source;
  /// When the run ended, YYYY-MM-DD (UTC).
  std::string Date;
  /// Anything a reader of the results should know, e.g. that an sm_80
  /// image ran on sm_90 hardware.
  std::string Note;
};

/// The version of metacu that ran the tuning, as `metacu --version` prints it.
llvm::StringRef metacuVersion();

/// Today's date in UTC, as RunInfo::Date spells it.
std::string currentDate();

/// "matmul on NVIDIA H100 80GB HBM3 (sm_90)", or "matmul for sm_90" when
/// no result names the device (every candidate failed to build).
std::string runHeading(const RunInfo &Info);

/// "compute_80 image run on NVIDIA H100 80GB HBM3" when \p Image is not
/// the device's own code (\p Arch); empty otherwise.
std::string imageNote(llvm::StringRef Image, llvm::StringRef Arch,
                      llvm::StringRef Device);

} // namespace metacu::tune

#endif
