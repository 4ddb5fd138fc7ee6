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
  if (Info->NeedsPredictions && !Options.Evaluation.Predicted)
    return llvm::createStringError(
        "strategy '" + Name +
        "' ranks configurations by the model's predictions: give them "
        "(--predictions FILE with --replay; docs/tune.md)");
  Evaluator E(Space, R, Options.Evaluation);
  Random Rng(Options.Seed);
  if (EvaluationListener *L = Options.Evaluation.Listener)
    L->started(E);
  Info->Create()->search(E, Rng);
  if (EvaluationListener *L = Options.Evaluation.Listener)
    L->finished(E);
  if (llvm::Error Err = E.takeError())
    return std::move(Err);
  TuneResult Result;
  Result.Strategy = Name.str();
  Result.Seed = Options.Seed;
  Result.Trace.assign(E.trace().begin(), E.trace().end());
  Result.Best = E.best();
  return Result;
}
