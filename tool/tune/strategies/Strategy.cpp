//===- Strategy.cpp - How a tuning run chooses what to measure ------------===//
#include "Strategy.h"

using namespace metacu::tune;

Strategy::~Strategy() = default;

static const StrategyInfo Strategies[] = {
    {"greedy_ils",
     "iterated local search: climb, perturb the local optimum by a random "
     "walk, keep what improves, restart when stuck",
     createGreedyILS},
    {"mls", "multi-start local search: climb from random starting points",
     createMultiStartLocalSearch},
    {"random_sample", "random configurations, each once",
     createRandomSample},
    {"brute_force", "every configuration, in enumeration order",
     createBruteForce},
};

llvm::ArrayRef<StrategyInfo> metacu::tune::strategies() { return Strategies; }

const StrategyInfo *metacu::tune::findStrategy(llvm::StringRef Name) {
  for (const StrategyInfo &S : Strategies)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

llvm::StringRef metacu::tune::defaultStrategy() { return Strategies[0].Name; }
