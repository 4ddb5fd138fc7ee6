//===- MultiStartLocalSearch.cpp - Climbs from random starting points -----===//
//
// Kernel Tuner's "mls": a first-improvement climb over the Hamming
// neighbourhood from a random configuration, then another from a new random
// configuration, until the budget is spent. Local optima of tuning spaces
// are many but shallow, so restarts find the good basins.
//
//===----------------------------------------------------------------------===//
#include "LocalSearch.h"
#include "Strategy.h"

using namespace metacu::tune;

namespace {
class MultiStartLocalSearch : public Strategy {
public:
  void search(Evaluator &E, Random &R) override {
    ClimbOptions Options{{Neighbourhood::Hamming}, Pivot::First};
    while (!E.done())
      climb(E, R, randomUnevaluated(E, R), Options);
  }
};
} // namespace

std::unique_ptr<Strategy> metacu::tune::createMultiStartLocalSearch() {
  return std::make_unique<MultiStartLocalSearch>();
}
