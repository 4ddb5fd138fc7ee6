//===- LocalSearch.h - Moves shared by the local-search strategies --------===//
//
// Hill climbing over a neighbourhood, random walks and random restarts: the
// pieces that multi-start local search and iterated local search combine
// differently. Neighbours are evaluated in batches of the runner's size, so
// a runner that compiles in parallel is kept busy.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_STRATEGIES_LOCALSEARCH_H
#define METACU_TUNE_STRATEGIES_LOCALSEARCH_H

#include "../Evaluator.h"
#include "../Random.h"
#include "../SearchSpace.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace metacu::tune {

/// Which better neighbour a climb moves to.
enum class Pivot {
  /// The first better one found, neighbours tried in random order.
  First,
  /// The best of all neighbours.
  Best,
};

/// What earlier climbs of a run learned: the local optimum that each
/// configuration on their paths led to. A climb that steps onto such a
/// configuration stops and reports that optimum, since from there it would
/// most likely retrace the earlier climb, re-measuring nothing but paying
/// for the neighbourhood scans that confirm the optimum.
class ClimbMemory {
public:
  explicit ClimbMemory(size_t SpaceSize) : OptimumOf(SpaceSize, -1) {}
  std::optional<uint32_t> optimumFrom(uint32_t Config) const {
    if (OptimumOf[Config] < 0)
      return std::nullopt;
    return uint32_t(OptimumOf[Config]);
  }
  void remember(llvm::ArrayRef<uint32_t> Path, uint32_t Optimum) {
    for (uint32_t C : Path)
      OptimumOf[C] = Optimum;
  }

private:
  std::vector<int64_t> OptimumOf;
};

struct ClimbOptions {
  /// Tried in order: a climb moves on in the first neighbourhood that has a
  /// better configuration and goes back to the first after each move
  /// (variable neighbourhood descent), so a cheap small neighbourhood does
  /// most of the work and a larger one only confirms the optimum.
  llvm::SmallVector<Neighbourhood, 2> Neighbourhoods;
  Pivot Rule = Pivot::First;
  /// After a move, try the same step again first: tuning objectives are
  /// mostly monotone along one parameter near a good region, so a step that
  /// helped tends to help twice.
  bool FollowThrough = false;
  /// Where to stop early and what to record; none when null.
  ClimbMemory *Memory = nullptr;
};

/// Climbs from \p Start while some neighbour is better and returns where it
/// stopped: a local optimum of every neighbourhood, unless the budget ran
/// out first. An invalid start counts as worse than any valid neighbour.
uint32_t climb(Evaluator &E, Random &R, uint32_t Start,
               const ClimbOptions &Options);

/// The configuration one more step from \p To in the direction \p From ->
/// \p To (follow-through), if it is in the space.
std::optional<uint32_t> sameStepAgain(const SearchSpace &Space, uint32_t From,
                                      uint32_t To);

/// \p Steps moves to random neighbours in \p N, evaluating nothing.
uint32_t randomWalk(const SearchSpace &Space, Random &R, uint32_t Start,
                    unsigned Steps, Neighbourhood N);

/// A uniformly random configuration not evaluated yet; E must not be
/// done().
uint32_t randomUnevaluated(const Evaluator &E, Random &R);

/// Iterated local search until the budget is spent: climb from a random
/// start, then kick the best point found by a random walk of \p KickSteps
/// Hamming moves and climb again; after \p Patience kicks in a row that
/// find nothing better, restart from a new random point.
void iterateClimbs(Evaluator &E, Random &R, const ClimbOptions &Options,
                   unsigned KickSteps, unsigned Patience);

} // namespace metacu::tune

#endif
