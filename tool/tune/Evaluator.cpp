//===- Evaluator.cpp - The cost function strategies search ----------------===//
#include "Evaluator.h"

#include "llvm/ADT/DenseSet.h"

using namespace metacu::tune;

EvaluationListener::~EvaluationListener() = default;

Evaluator::Evaluator(const SearchSpace &Space, Runner &R,
                     EvaluatorOptions Options)
    : Space(Space), R(R), Options(Options), Start(R.seconds()),
      Costs(Space.size()) {}

Evaluator::~Evaluator() { llvm::consumeError(std::move(Failure)); }

void Evaluator::fail(llvm::Error E) {
  // The first failure is the cause; later ones follow from it.
  if (Failed) {
    llvm::consumeError(std::move(E));
    return;
  }
  llvm::consumeError(std::move(Failure));
  Failure = std::move(E);
  Failed = true;
}

unsigned Evaluator::roundSize() const {
  unsigned Size = std::clamp(R.roundSize(), 1u, std::max(1u, batchSize()));
  if (RoundConfigs == 0 || RoundGpuSeconds <= 0)
    return Size;
  double GpuPerConfig = RoundGpuSeconds / RoundConfigs;
  double RestPerRound = std::max(0.0, RoundSeconds - RoundGpuSeconds) / Rounds;
  double Fits = RestPerRound / GpuPerConfig;
  if (Fits >= Size)
    return Size;
  return std::max(1u, unsigned(Fits));
}

bool Evaluator::timeUp() const {
  return Options.Limit.Seconds && R.seconds() - Start >= *Options.Limit.Seconds;
}

bool Evaluator::done() const {
  return Failed || Trace.size() >= Space.size() ||
         (Options.Limit.Evaluations &&
          Trace.size() >= *Options.Limit.Evaluations) ||
         timeUp();
}

void Evaluator::record(uint32_t Config, Measurement M, bool Resumed) {
  Cost &C = Costs[Config];
  C.Evaluated = true;
  if (M.valid())
    C.Value = Options.Objective.Maximize ? -M.Objective : M.Objective;
  if (C.valid() && (!Best || C.Value < Costs[*Best].Value))
    Best = Config;
  Trace.push_back({Config, std::move(M), Resumed, R.seconds() - Start,
                   Resumed ? 0 : Rounds});
  if (Options.Listener)
    Options.Listener->evaluated(*this, Trace.back());
}

std::vector<Cost> Evaluator::evaluate(llvm::ArrayRef<uint32_t> Configs) {
  // The new configurations, once each, in the order asked, within budget.
  std::vector<uint32_t> Pending;
  llvm::DenseSet<uint32_t> Seen;
  for (uint32_t C : Configs)
    if (!known(C) && Seen.insert(C).second)
      Pending.push_back(C);
  if (Options.Limit.Evaluations) {
    size_t Left = *Options.Limit.Evaluations > Trace.size()
                      ? *Options.Limit.Evaluations - Trace.size()
                      : 0;
    if (Pending.size() > Left)
      Pending.resize(Left);
  }

  std::vector<uint32_t> ToMeasure;
  for (uint32_t C : Pending) {
    if (done())
      break;
    const Measurement *Earlier =
        Options.Journal ? Options.Journal->lookup(R.target(), Space.toJSON(C))
                        : nullptr;
    if (Earlier)
      record(C, *Earlier, /*Resumed=*/true);
    else
      ToMeasure.push_back(C);
  }

  if (!ToMeasure.empty() && !done()) {
    ++Rounds;
    double Before = R.seconds();
    llvm::Error Err = R.run(ToMeasure, [&](size_t Position, Measurement M) {
      uint32_t C = ToMeasure[Position];
      RoundGpuSeconds += (M.BenchmarkMs + M.VerificationMs) / 1000;
      ++RoundConfigs;
      if (Options.Journal)
        if (llvm::Error JErr =
                Options.Journal->append(R.target(), Space.toJSON(C), M)) {
          fail(std::move(JErr));
          return false;
        }
      record(C, std::move(M), /*Resumed=*/false);
      return !done();
    });
    RoundSeconds += R.seconds() - Before;
    if (Err)
      fail(std::move(Err));
  }

  std::vector<Cost> Result;
  Result.reserve(Configs.size());
  for (uint32_t C : Configs)
    Result.push_back(Costs[C]);
  return Result;
}
