//===- Tuner.cpp - One tuning run: a strategy against a runner ------------===//
#include "Tuner.h"
#include "strategies/Strategy.h"

#include "llvm/ADT/StringExtras.h"

using namespace metacu::tune;

namespace {
/// Measures nothing: records what the strategy asks for.
class ProposalRunner : public Runner {
public:
  explicit ProposalRunner(unsigned Batch) : Batch(Batch) {}
  const Target &target() const override { return None; }
  unsigned preferredBatch() const override { return Batch; }
  llvm::Error run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) override {
    for (size_t I = 0; I < Configs.size(); ++I) {
      Proposed.push_back(Configs[I]);
      Measurement M;
      M.Status = Validity::Runtime;
      M.Reason = "not measured";
      if (!Done(I, std::move(M)))
        break;
    }
    return llvm::Error::success();
  }
  std::vector<uint32_t> Proposed;

private:
  Target None;
  unsigned Batch;
};
} // namespace

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

llvm::Expected<std::vector<uint32_t>>
metacu::tune::proposedConfigs(const SearchSpace &Space,
                              llvm::StringRef Strategy, uint64_t Seed,
                              size_t Budget, unsigned Batch) {
  const StrategyInfo *Info = findStrategy(Strategy);
  if (Info && Info->Adaptive)
    return llvm::createStringError(
        "'" + Strategy +
        "' chooses by what it measures, so it cannot choose a fixed set of "
        "configurations ahead of the measurements");
  ProposalRunner R(std::max(1u, Batch));
  TuneOptions Options;
  Options.Strategy = Strategy.str();
  Options.Seed = Seed;
  if (Budget)
    Options.Evaluation.Limit.Evaluations = Budget;
  if (auto Run = runTuning(Space, R, Options); !Run)
    return Run.takeError();
  return std::move(R.Proposed);
}
