//===- ReplayMode.cpp - `metacu tune --replay`: recorded times ------------===//
#include "ReplayMode.h"
#include "KernelTunerCache.h"
#include "Predictions.h"
#include "Progress.h"
#include "Summary.h"
#include "runners/ReplayRunner.h"
#include "support/TerminalStream.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

using namespace metacu::tune;

std::optional<size_t> ReplayResult::evaluationsToWithin(double Fraction) const {
  if (const Evaluation *E = firstWithin(Fraction))
    return E - Run.Trace.data() + 1;
  return std::nullopt;
}

const Evaluation *ReplayResult::firstWithin(double Fraction) const {
  if (!Optimum)
    return nullptr;
  const Metric &Objective = Info.Objective;
  double Target =
      OptimumObjective * (Objective.Maximize ? 1 - Fraction : 1 + Fraction);
  for (size_t I = 0; I < Run.Trace.size(); ++I) {
    const Measurement &M = Run.Trace[I].M;
    if (M.valid() && !Objective.better(Target, M.Objective))
      return &Run.Trace[I];
  }
  return nullptr;
}

llvm::Expected<ReplayResult>
metacu::tune::replay(const ReplayOptions &Options) {
  // Streamed: the runner keeps a fixed size of each entry, not its record.
  KernelTunerCache Cache;
  SearchSpace Space;
  auto Runner = ReplayRunner::read(Options.CachePath, Cache, Space);
  if (!Runner)
    return Runner.takeError();
  if (Options.Rounds)
    (*Runner)->runInRounds(*Options.Rounds);

  ReplayResult Result;
  RunInfo &Info = Result.Info;
  Info.Kernel = Cache.KernelName;
  Info.Where = {Options.Arch, Cache.DeviceName};
  Info.Objective = Metric::fromObjective(Cache.Objective);
  Info.Limit = Options.Limit;
  Info.Source = Options.CachePath;
  Info.Note = ("replay of " + llvm::sys::path::filename(Options.CachePath) +
               ", recorded on " + Cache.DeviceName)
                  .str();
  for (uint32_t I = 0; I < Space.size(); ++I) {
    Measurement M = (*Runner)->recorded(I);
    if (!M.valid())
      continue;
    ++Result.ValidConfigs;
    if (!Result.Optimum ||
        Info.Objective.better(M.Objective, Result.OptimumObjective)) {
      Result.Optimum = I;
      Result.OptimumObjective = M.Objective;
    }
  }

  std::optional<Predictions> Predicted;
  if (!Options.PredictionsPath.empty()) {
    // The cache names its kernel, not the target its image was built for.
    auto P = Predictions::read(Options.PredictionsPath, Space,
                               {Cache.KernelName, "", ""});
    if (!P)
      return P.takeError();
    Predicted = std::move(*P);
  }

  auto Journal = openJournal(Options.Outputs);
  if (!Journal)
    return Journal.takeError();
  TuneOptions Tune;
  Tune.Strategy = Options.Strategy;
  Tune.Seed = Options.Seed;
  Tune.Evaluation.Limit = Options.Limit;
  Tune.Evaluation.Objective = Info.Objective;
  Tune.Evaluation.Journal = Journal->get();
  Tune.Evaluation.Listener = Options.Listener;
  Tune.Evaluation.Predicted = Predicted ? &*Predicted : nullptr;
  auto Run = runTuning(Space, **Runner, Tune);
  if (!Run)
    return Run.takeError();
  Result.Run = std::move(*Run);
  if (Result.Run.Best)
    Result.BestObjective = (*Runner)->recorded(*Result.Run.Best).Objective;
  Result.SimulatedSeconds = (*Runner)->seconds();
  Result.Rounds = Options.Rounds;
  Info.Date = currentDate();
  Result.Space = std::move(Space);
  return Result;
}

void metacu::tune::printReplaySummary(llvm::raw_ostream &Terminal,
                                      const ReplayResult &R, unsigned Top) {
  TerminalStream OS(Terminal);
  const RunInfo &Info = R.Info;
  size_t Invalid = 0, Resumed = 0;
  for (const Evaluation &E : R.Run.Trace) {
    Invalid += !E.M.valid();
    Resumed += E.Resumed;
  }
  OS << "replay of " << Info.Kernel << " on " << Info.Where.Device << " ("
     << Info.Source << ")\n";
  SummaryRows Rows;
  Rows.emplace_back("space", llvm::formatv("{0} configurations, {1} valid",
                                           R.Space.size(), R.ValidConfigs));
  Rows.emplace_back("strategy",
                    llvm::formatv("{0}, seed {1}", R.Run.Strategy, R.Run.Seed));
  std::string Evals = std::to_string(R.Run.Trace.size()) + " (" +
                      std::to_string(Invalid) + " invalid";
  if (Resumed)
    Evals += ", " + std::to_string(Resumed) + " from the journal";
  Rows.emplace_back("evaluations", Evals + ")");
  unsigned Rounds = 0;
  for (const Evaluation &E : R.Run.Trace)
    Rounds = std::max(Rounds, E.Round);
  if (const std::optional<RoundModel> &M = R.Rounds)
    Rows.emplace_back(
        "rounds",
        llvm::formatv("{0} of at most {1} ({2} s fixed, {3} s to compile a "
                      "configuration on one of {4} cores)",
                      Rounds, M->batch(), M->FixedSeconds, M->CompileSeconds,
                      M->Cores));
  Rows.emplace_back(R.Rounds ? "modelled time" : "simulated time",
                    llvm::formatv("{0:f1} s", R.SimulatedSeconds));
  if (R.Optimum) {
    std::string Optimum = Info.Objective.format(R.OptimumObjective);
    if (R.Run.Best)
      Optimum += " (best found " +
                 formatChange(R.BestObjective, R.OptimumObjective) + ")";
    Rows.emplace_back("recorded optimum", Optimum);
  }
  for (double Fraction : {0.01, 0.02}) {
    std::string Reached = "not reached";
    if (const Evaluation *E = R.firstWithin(Fraction)) {
      Reached =
          llvm::formatv("{0} evaluations", *R.evaluationsToWithin(Fraction));
      if (R.Rounds)
        Reached +=
            llvm::formatv(", {0} rounds, {1:f1} s", E->Round, E->Seconds);
    }
    Rows.emplace_back(llvm::formatv("to within {0}%", int(Fraction * 100)),
                      Reached);
  }
  printSummary(OS, Rows, R.Space, R.Run.Trace, Info.Objective, Top);
}

llvm::Error metacu::tune::runReplayMode(ReplayOptions Options, bool Quiet) {
  std::vector<std::string> Read{Options.CachePath};
  if (!Options.PredictionsPath.empty())
    Read.push_back(Options.PredictionsPath);
  if (llvm::Error Err = checkRunOutputs(Options.Outputs, Read))
    return Err;
  std::optional<Progress> Shown;
  if (!Quiet)
    Options.Listener = &Shown.emplace(llvm::errs(), Progress::styleForStderr());
  auto Result = replay(Options);
  if (!Result)
    return Result.takeError();
  printReplaySummary(llvm::outs(), *Result, Options.Outputs.Top);
  return writeRunOutputs(Options.Outputs, Result->Info, Result->Space,
                         Result->Run, std::move(Read), llvm::errs());
}
