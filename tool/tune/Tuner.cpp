//===- Tuner.cpp - One tuning run: a strategy against a runner ------------===//
#include "Tuner.h"
#include "strategies/Strategy.h"

#include "llvm/ADT/StringExtras.h"

using namespace metacu::tune;

llvm::Expected<TuneResult> metacu::tune::runTuning(const SearchSpace &Space,
                                                   Runner &R,
                                                   const TuneOptions &Options) {
  llvm::StringRef Name =
      Options.Strategy.empty() ? defaultStrategy() : Options.Strategy;
  const StrategyInfo *Info = findStrategy(Name);
  if (!Info) {
    std::vector<std::string> Names;
    for (const StrategyInfo &S : strategies())
      Names.push_back(S.Name.str());
    return llvm::createStringError("unknown strategy '" + Name +
                                   "'; the strategies are " +
                                   llvm::join(Names, ", "));
  }
  Evaluator E(Space, R, Options.Evaluation);
  Random Rng(Options.Seed);
  Info->Create()->search(E, Rng);
  if (llvm::Error Err = E.takeError())
    return std::move(Err);
  TuneResult Result;
  Result.Strategy = Name.str();
  Result.Seed = Options.Seed;
  Result.Trace.assign(E.trace().begin(), E.trace().end());
  Result.Best = E.best();
  return Result;
}
