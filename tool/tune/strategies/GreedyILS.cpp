//===- GreedyILS.cpp - Iterated local search ------------------------------===//
//
// Climb to a local optimum, kick it with a short random walk, climb again
// from there, and keep the new optimum when it is better: the search stays
// near good configurations, where better ones tend to be, instead of
// starting over. After several kicks without progress it restarts from a
// random configuration.
//
//===----------------------------------------------------------------------===//
#include "LocalSearch.h"
#include "Strategy.h"

#include <cmath>

using namespace metacu::tune;

namespace {
class GreedyILS : public Strategy {
public:
  void search(Evaluator &E, Random &R) override {
    ClimbOptions Options{{Neighbourhood::Hamming}, Pivot::First};
    // Perturb about a third of the parameters, as Kernel Tuner does.
    unsigned Steps =
        std::max<unsigned>(1, std::ceil(0.3 * E.space().parameters().size()));
    const unsigned Patience = 50;
    iterateClimbs(E, R, Options, Steps, Patience);
  }
};
} // namespace

std::unique_ptr<Strategy> metacu::tune::createGreedyILS() {
  return std::make_unique<GreedyILS>();
}
