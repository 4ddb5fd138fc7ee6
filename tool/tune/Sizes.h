//===- Sizes.h - Tuning per problem size ----------------------------------===//
//
// A space that declares problem sizes (tune_space::sizes) has every
// candidate timed at each; the best configuration can move with the size
// (a small problem wants small tiles and many blocks). This unit turns a
// bundle's results into one run per size, says which sizes each size's
// entry serves under the program's rule (metacu::nearest_size, the nearest
// in the ratio of sizes) and what a single entry for every size would lose,
// and writes the tuning file's entry per architecture and size
// ("sm_90@1048576").
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_SIZES_H
#define METACU_TUNE_SIZES_H

#include "Bundle.h"
#include "RunInfo.h"
#include "SearchSpace.h"
#include "Tuner.h"
#include "TuningFile.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu::tune {

/// The evaluations of every candidate at one problem size.
struct SizeRun {
  std::vector<int64_t> Size;
  TuneResult Run;
};

/// One run per size of \p B's space, in the order the space declares them.
std::vector<SizeRun> sizeRuns(const BundleResults &B);

/// The problems an entry serves under metacu::nearest_size: from \c From to
/// \c To, both included; \c To is none for no bound.
struct SizeRange {
  int64_t From = 1;
  std::optional<int64_t> To;
};

/// For one-dimensional sizes: the range each serves, in the order given.
/// Sizes of several dimensions have no ranges (what a shape serves is a
/// region, not an interval): none then.
std::optional<std::vector<SizeRange>>
servedRanges(llvm::ArrayRef<std::vector<int64_t>> Sizes);

/// One size: its best configuration and the single entry's result there.
struct SizeRow {
  std::vector<int64_t> Size;
  /// None when no configuration was valid at this size.
  std::optional<uint32_t> Best;
  double BestObjective = 0;
  /// The single entry's objective here; none when it has no entry's
  /// configuration (no configuration is valid at every size).
  std::optional<double> SingleObjective;
  std::optional<SizeRange> Serves;
};

/// The sizes' best configurations against the best single configuration:
/// the one, valid at every size, whose objective relative to each size's
/// best has the greatest geometric mean.
struct SizeAnalysis {
  /// Ascending by size.
  std::vector<SizeRow> Rows;
  std::optional<uint32_t> Single;
  /// What the single entry loses against the per-size entries, as a
  /// fraction of the per-size result: the geometric mean over the sizes,
  /// and the worst size's (Rows[WorstRow]).
  double MeanLoss = 0, WorstLoss = 0;
  size_t WorstRow = 0;
};

SizeAnalysis analyseSizes(const Metric &M, llvm::ArrayRef<SizeRun> Runs);

/// The per-size table: each size, the problems its entry serves, its best
/// configuration and objective, the single entry's objective there and the
/// loss; then the single entry and its mean and worst loss.
void printSizeTable(llvm::raw_ostream &OS, const SearchSpace &Space,
                    const Metric &M, const SizeAnalysis &A);

/// The tuning file's entries of \p Info's architecture, one per size with a
/// valid configuration, keyed "sm_90@N" (entryKey).
llvm::Expected<std::vector<std::pair<std::string, TuningEntry>>>
sizeEntries(const RunInfo &Info, const SearchSpace &Space,
            llvm::ArrayRef<SizeRun> Runs);

} // namespace metacu::tune

#endif
