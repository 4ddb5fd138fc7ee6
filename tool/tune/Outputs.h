//===- Outputs.h - What every mode of `metacu tune` writes ----------------===//
//
// A run on the GPU, an import and a replay end alike: the summary on
// stdout, then the files asked for (T4, a Kernel Tuner cache, the HTML
// report, the tuning file), all made before any is written, so that a run
// that fails changes none of them. The paths are checked before the run
// starts: no output may replace a file the run reads or another output.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_OUTPUTS_H
#define METACU_TUNE_OUTPUTS_H

#include "Journal.h"
#include "RunInfo.h"
#include "SearchSpace.h"
#include "Summary.h"
#include "Tuner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <string>
#include <vector>

namespace metacu::tune {

/// The files a run writes; empty: not asked for.
struct RunOutputs {
  /// --t4: every evaluation in T4 format.
  std::string T4;
  /// --kt-cache: the evaluations as a Kernel Tuner cache file.
  std::string KTCache;
  /// --tuning-file: the best configuration as the architecture's entry.
  std::string TuningFile;
  /// --html: the self-contained HTML report of the run.
  std::string Html;
  /// --journal: read before the run and appended to as it goes, so it is
  /// checked as an output and never replaced by one.
  std::string Journal;
  /// --force: write the tuning file's entry over a better or another
  /// kernel's one.
  bool Force = false;
  /// How many of the best configurations the summary and the report list.
  unsigned Top = 10;
};

/// Before the run: no output (the journal and \p Others among them) may
/// replace a file of \p Read or another output, and the tuning file to
/// update must read, so that a long run cannot end in an error it could
/// have begun with. The tuning file may be one of \p Read: the kernel's
/// meta code reads it, and the run updates it on purpose.
llvm::Error checkRunOutputs(const RunOutputs &O, std::vector<std::string> Read,
                            llvm::ArrayRef<std::string> Others = {});

/// O.Journal opened to resume from and append to; null when none.
llvm::Expected<std::unique_ptr<tune::Journal>> openJournal(const RunOutputs &O);

/// The summary of a run on \p OS under \p Heading (space, strategy,
/// evaluations, \p Extra rows, the note, the O.Top best).
void printRunSummary(llvm::raw_ostream &OS, const RunOutputs &O,
                     const RunInfo &Info, const SearchSpace &Space,
                     const TuneResult &Run, llvm::StringRef Heading,
                     const SummaryRows &Extra = {});

/// Every output file of \p O, all made before any is written and then
/// written together (the tuning file merged under its lock): a run that
/// fails changes none. \p Read: the files the run read. What the tuning
/// file's merge did is said on \p Log.
llvm::Error writeRunOutputs(const RunOutputs &O, const RunInfo &Info,
                            const SearchSpace &Space, const TuneResult &Run,
                            std::vector<std::string> Read,
                            llvm::raw_ostream &Log);

} // namespace metacu::tune

#endif
