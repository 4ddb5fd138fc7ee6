//===- IteratedLocalSearch.cpp - metacu's default strategy ----------------===//
//
// Iterated local search over a variable-neighbourhood descent:
//  - climb by first improvement over the adjacent neighbourhood (one step of
//    one parameter), which is small, so each move is cheap; only at its
//    local optimum scan the Hamming neighbourhood (any value of one
//    parameter), and go back to adjacent steps after a Hamming move;
//  - after a move, try the same step again first (follow-through);
//  - stop a climb that steps onto an earlier climb's path: it would end at
//    that climb's optimum;
//  - kick the best local optimum by a short random walk and climb again;
//    keep the new optimum when better; restart from a random configuration
//    after several kicks without progress.
// On the recorded spaces this reaches 1% of the optimum in fewer
// evaluations than Kernel Tuner's greedy_ils and mls (docs/tune.md).
//
// Rounds are filled to the runner's round size (a GPU machine's cores) by
// several such searches advancing at once (ClimbRounds.h): on the GPU a
// round of one configuration per core costs about what a round of a few
// does, so the searches' extra evaluations are nearly free and the rounds
// to the optimum are fewer.
//
// A space no larger than the runner's batch is measured whole, in one
// round: on the GPU a round's wall clock is mostly its fixed cost (an
// expansion, the harness's compile and set-up) while the cores compile its
// candidates side by side, so climbing such a space in rounds of a few
// neighbours costs several rounds for what one round measures completely
// (the matmul's 38 configurations took 21 to 31 climbing evaluations to
// reach 2% of the optimum; docs/tune.md, "time to the optimum").
//
//===----------------------------------------------------------------------===//
#include "ClimbRounds.h"
#include "Strategy.h"

#include <numeric>
#include <vector>

using namespace metacu::tune;

namespace {
class IteratedLocalSearch : public Strategy {
public:
  void search(Evaluator &E, Random &R) override {
    if (E.batchSize() > 1 && E.space().size() <= E.batchSize()) {
      std::vector<uint32_t> All(E.space().size());
      std::iota(All.begin(), All.end(), 0u);
      E.evaluate(All);
      return;
    }
    ClimbMemory Memory(E.space().size());
    ClimbOptions Options{{Neighbourhood::Adjacent, Neighbourhood::Hamming},
                         /*Rule=*/Pivot::First,
                         /*FollowThrough=*/true,
                         &Memory};
    // Results hardly change between 2 and 4 steps and between 5 and 20
    // kicks (docs/tune.md); these are the middle of that range.
    const unsigned KickSteps = 3;
    const unsigned Patience = 10;
    iterateClimbsInRounds(E, R, Options, KickSteps, Patience);
  }
};
} // namespace

std::unique_ptr<Strategy> metacu::tune::createIteratedLocalSearch() {
  return std::make_unique<IteratedLocalSearch>();
}
