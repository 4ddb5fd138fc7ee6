//===- ClimbRounds.h - Iterated local search, a round at a time -----------===//
//
// On a GPU a round costs a fixed part (an expansion, the harness's compile
// and set-up) plus its compiles spread over the cores, so a round of as
// many configurations as there are cores costs about what a round of one
// does; the number of rounds, not of evaluations, sets the wall clock.
// A climb proposes a neighbourhood at a time (2 to 11 configurations on the
// recorded spaces), which leaves most cores idle and takes one round a move.
//
// So several climbs (walkers) advance together: each round holds the next
// neighbours of the best walker, then of the next best, and so on, and
// walkers from new random starts fill what is left, up to the evaluator's
// round size. After the round each walker moves to the best better
// neighbour measured so far (first improvement, a round's worth at a time),
// scans its next neighbourhood at a local optimum, and ends its climb when
// none is better; then, as in iterateClimbs(), it kicks its best optimum by
// a random walk and climbs again, and restarts from a random configuration
// after several kicks without progress. Configurations that another walker
// measured cost nothing, and a walker that steps onto an earlier climb's
// path takes that climb's optimum (ClimbMemory).
//
// With a round size of 1 (a replay one configuration at a time) there is
// one walker and this is iterateClimbs()'s first-improvement search.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_STRATEGIES_CLIMBROUNDS_H
#define METACU_TUNE_STRATEGIES_CLIMBROUNDS_H

#include "LocalSearch.h"

namespace metacu::tune {

/// Iterated local search until the budget is spent, rounds of
/// E.roundSize() configurations filled from several climbs at once.
/// \p Options.Rule is ignored: a walker takes the best improvement of what
/// a round measured.
void iterateClimbsInRounds(Evaluator &E, Random &R, const ClimbOptions &Options,
                           unsigned KickSteps, unsigned Patience);

} // namespace metacu::tune

#endif
