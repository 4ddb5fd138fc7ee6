//===- Summary.h - What a run found, as a table and as statistics ---------===//
//
// The table `metacu tune` prints at the end of a run (the best
// configuration and its objective, the top configurations, invalid ones
// counted by reason), and the statistics behind it, which the HTML report
// shows too: the ranking of the valid evaluations, the best so far after
// each evaluation, the invalid evaluations grouped by why they failed.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_SUMMARY_H
#define METACU_TUNE_SUMMARY_H

#include "Evaluator.h"
#include "Measurement.h"
#include "SearchSpace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace metacu::tune {

/// Positions in \p Trace of the valid evaluations, best first; equal
/// objectives keep the order they were evaluated in, so the first is the
/// configuration the evaluator calls best.
std::vector<size_t> rankValid(llvm::ArrayRef<Evaluation> Trace,
                              const Metric &M);

/// The best objective after each evaluation; none before the first valid
/// one.
std::vector<std::optional<double>> bestSoFar(llvm::ArrayRef<Evaluation> Trace,
                                             const Metric &M);

/// The invalid evaluations of one kind.
struct InvalidGroup {
  Validity Status = Validity::Compile;
  size_t Count = 0;
  /// Each distinct reason (its first line) with how often it was given,
  /// most frequent first; an evaluation without a reason is not listed.
  std::vector<std::pair<std::string, size_t>> Reasons;
};

/// The invalid evaluations by kind, in the order of Validity; kinds that
/// did not occur are left out.
std::vector<InvalidGroup> invalidGroups(llvm::ArrayRef<Evaluation> Trace);

/// How \p V differs from \p Reference, in percent with its sign: "+0.36%"
/// (a time 0.36% longer, or a rate 0.36% higher).
std::string formatChange(double V, double Reference);

/// The key-value lines at the head of a summary, in order.
using SummaryRows = std::vector<std::pair<std::string, std::string>>;

/// Prints \p Rows, the best configuration and its objective, a table of the
/// \p Top best configurations (one column per parameter) and the invalid
/// evaluations by kind and reason.
void printSummary(llvm::raw_ostream &OS, const SummaryRows &Rows,
                  const SearchSpace &Space, llvm::ArrayRef<Evaluation> Trace,
                  const Metric &M, unsigned Top);

} // namespace metacu::tune

#endif
