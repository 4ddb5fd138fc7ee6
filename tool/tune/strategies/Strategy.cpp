//===- Strategy.cpp - How a tuning run chooses what to measure ------------===//
#include "Strategy.h"

using namespace metacu::tune;

Strategy::~Strategy() = default;

static const StrategyInfo Strategies[] = {
    {"ils",
     "iterated local search over adjacent-then-Hamming descent with "
     "follow-through steps and path memory (the default)",
     createIteratedLocalSearch},
    {"greedy_ils",
     "Kernel Tuner's greedy_ils: Hamming climbs, random-walk kicks of a "
     "third of the parameters, restarts",
     createGreedyILS},
    {"mls", "Kernel Tuner's mls: Hamming climbs from random starting points",
     createMultiStartLocalSearch},
    {"model",
     "metacu report's predictions: never what cannot launch, spills last, "
     "the rest from the predicted fastest, re-ranked by what measurements "
     "teach (needs predictions)",
     createModelGuided, /*NeedsPredictions=*/true},
    {"random_sample", "random configurations, each once", createRandomSample,
     /*NeedsPredictions=*/false, /*Adaptive=*/false},
    {"brute_force", "every configuration, in enumeration order",
     createBruteForce, /*NeedsPredictions=*/false, /*Adaptive=*/false},
};

llvm::ArrayRef<StrategyInfo> metacu::tune::strategies() { return Strategies; }

const StrategyInfo *metacu::tune::findStrategy(llvm::StringRef Name) {
  for (const StrategyInfo &S : Strategies)
    if (S.Name == Name)
      return &S;
  return nullptr;
}

llvm::StringRef metacu::tune::defaultStrategy() { return Strategies[0].Name; }
