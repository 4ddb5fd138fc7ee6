//===- ImportMode.h - `metacu tune --import`: a bundle's results ----------===//
//
// The second step of the two-step flow: what a bundle's run.py measured on
// the GPU machine, read back as a run of the bundle's strategy, summarised
// and written to the run's outputs like a run on the GPU.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_IMPORTMODE_H
#define METACU_TUNE_IMPORTMODE_H

#include "Outputs.h"

#include "llvm/Support/Error.h"
#include <string>

namespace metacu::tune {

struct ImportOptions {
  /// The bundle's folder (manifest.json, results.jsonl).
  std::string Dir;
  /// The architecture the results must be for ("sm_90"); empty: any.
  std::string Arch;
  RunOutputs Outputs;
};

/// Reads the bundle's results, prints the summary on stdout (a warning per
/// duplicate result and the merge's message on stderr) and writes the
/// outputs; the journal gets every imported result. A space of several
/// problem sizes (tune_space::sizes) gets the table per size and the tuning
/// file's entry per size instead (Sizes.h); the outputs of one size's
/// evaluations (T4, the cache, the report, the journal) are refused.
llvm::Error runImportMode(const ImportOptions &Options);

} // namespace metacu::tune

#endif
