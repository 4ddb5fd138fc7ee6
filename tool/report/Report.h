//===- Report.h - One row per kernel and architecture ---------------------===//
//
// Joins what ptxas says of each entry with its PTX counts, and, where the
// architecture's limits are known and a launch configuration is given,
// its occupancy, predicted time and diagnoses. The printers write these
// rows; the tuner can rank them.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_REPORT_H
#define METACU_REPORT_REPORT_H

#include "report/ArchLimits.h"
#include "report/Model.h"
#include "report/Occupancy.h"
#include "report/PtxCounts.h"
#include "report/Ptxas.h"
#include "toolchain/Arch.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu::report {

struct KernelReport {
  /// As written, unqualified.
  std::string Name;
  Arch Target;
  KernelResources Resources;
  KernelCounts Counts;
  /// ptxas's stack frames and spills of the functions Counts.Called names,
  /// which are not in Resources.
  std::vector<KernelResources> CalleeFrames;
  /// Null where the table lacks the architecture.
  const ArchLimits *Limits = nullptr;
  std::optional<LaunchConfig> Launch;
  /// Launch was not given: it is the kernel's __launch_bounds__ (which a
  /// kernel in the dialect writes from its @meta table), one block of that
  /// many threads.
  bool LaunchFromBounds = false;
  /// Computed when Limits and Launch are both known.
  std::optional<Occupancy> Occ;
  /// Computed when the kernel can launch.
  std::optional<Prediction> Model;
  std::vector<std::string> Diagnoses;
};

/// The launch configuration of a kernel (by its name as written) on an
/// architecture, if given. A kernel with none given and __launch_bounds__
/// is taken to run blocks of its maximum.
using LaunchLookup = llvm::function_ref<std::optional<LaunchConfig>(
    llvm::StringRef Name, const Arch &Target)>;

/// Rows for every entry of every build, grouped by kernel (in the order of
/// the first build's PTX), architectures ascending within a kernel.
llvm::Expected<std::vector<KernelReport>>
buildReports(llvm::ArrayRef<ArchBuild> Builds, LaunchLookup LaunchFor);

} // namespace metacu::report

#endif
