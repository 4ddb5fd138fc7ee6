//===- Replay.cpp - `metacu tune --replay`: a strategy on recorded times --===//
#include "Replay.h"
#include "KernelTunerCache.h"
#include "ResultCache.h"
#include "T4.h"
#include "runners/Replay.h"

#include "llvm/Support/FormatVariadic.h"

using namespace metacu::tune;

std::optional<size_t> ReplayResult::evaluationsToWithin(double Fraction) const {
  if (!Optimum)
    return std::nullopt;
  double Target = OptimumObjective * (Maximize ? 1 - Fraction : 1 + Fraction);
  for (size_t I = 0; I < Run.Trace.size(); ++I) {
    const Measurement &M = Run.Trace[I].M;
    if (M.valid() && (Maximize ? M.Objective >= Target : M.Objective <= Target))
      return I + 1;
  }
  return std::nullopt;
}

llvm::Expected<ReplayResult>
metacu::tune::replay(const ReplayOptions &Options) {
  auto Cache = KernelTunerCache::read(Options.CachePath);
  if (!Cache)
    return Cache.takeError();
  auto Space = Cache->recordedSpace();
  if (!Space)
    return Space.takeError();
  auto Runner = ReplayRunner::create(*Cache, *Space);
  if (!Runner)
    return Runner.takeError();

  ReplayResult Result;
  Result.CachePath = Options.CachePath;
  Result.Kernel = Cache->KernelName;
  Result.Device = Cache->DeviceName;
  Result.Objective = Cache->Objective;
  // Kernel Tuner's caches do not say which way the objective goes; time is
  // minimised and throughputs (GFLOP/s, GB/s) are maximised.
  Result.Maximize = llvm::StringRef(Cache->Objective).ends_with("/s");
  for (uint32_t I = 0; I < Space->size(); ++I) {
    const Measurement &M = (*Runner)->recorded(I);
    if (!M.valid())
      continue;
    ++Result.ValidConfigs;
    if (!Result.Optimum ||
        (Result.Maximize ? M.Objective > Result.OptimumObjective
                         : M.Objective < Result.OptimumObjective)) {
      Result.Optimum = I;
      Result.OptimumObjective = M.Objective;
    }
  }

  std::unique_ptr<ResultCache> Journal;
  if (!Options.JournalPath.empty()) {
    auto J = ResultCache::open(Options.JournalPath);
    if (!J)
      return J.takeError();
    Journal = std::move(*J);
  }
  TuneOptions Tune;
  Tune.Strategy = Options.Strategy;
  Tune.Seed = Options.Seed;
  Tune.Evaluation.Limit = Options.Limit;
  Tune.Evaluation.Maximize = Result.Maximize;
  Tune.Evaluation.Journal = Journal.get();
  auto Run = runTuning(*Space, **Runner, Tune);
  if (!Run)
    return Run.takeError();
  Result.Run = std::move(*Run);
  if (Result.Run.Best)
    Result.BestObjective = (*Runner)->recorded(*Result.Run.Best).Objective;
  Result.SimulatedSeconds = (*Runner)->seconds();

  if (!Options.T4Path.empty())
    if (llvm::Error Err =
            writeT4(Options.T4Path, *Space, Result.Run.Trace, Cache->Objective))
      return std::move(Err);
  Result.Space = std::move(*Space);
  return Result;
}

void metacu::tune::printReplaySummary(llvm::raw_ostream &OS,
                                      const ReplayResult &R) {
  llvm::StringRef Unit = R.Objective == "time" ? " ms" : "";
  auto Row = [&](llvm::StringRef Label, const llvm::Twine &Text) {
    OS << llvm::formatv("  {0,-22} ", Label) << Text << '\n';
  };
  auto Config = [&](uint32_t C) {
    std::string Text;
    for (size_t P = 0; P < R.Space.parameters().size(); ++P)
      Text += (P ? " " : "") + R.Space.parameters()[P].Name + "=" +
              R.Space.value(C, P).str();
    return Text;
  };
  size_t Invalid = 0, Resumed = 0;
  for (const Evaluation &E : R.Run.Trace) {
    Invalid += !E.M.valid();
    Resumed += E.Resumed;
  }

  OS << "replay of " << R.Kernel << " on " << R.Device << " (" << R.CachePath
     << ")\n";
  Row("space", llvm::Twine(R.Space.size()) + " configurations, " +
                   llvm::Twine(R.ValidConfigs) + " valid");
  Row("strategy", R.Run.Strategy + ", seed " + llvm::Twine(R.Run.Seed));
  std::string Evals = std::to_string(R.Run.Trace.size()) + " (" +
                      std::to_string(Invalid) + " invalid";
  if (Resumed)
    Evals += ", " + std::to_string(Resumed) + " from the journal";
  Row("evaluations", Evals + ")");
  Row("simulated time", llvm::formatv("{0:f1} s", R.SimulatedSeconds));
  if (!R.Run.Best) {
    Row("best", "no valid configuration found");
    return;
  }
  double Best = R.BestObjective;
  Row("best configuration", Config(*R.Run.Best));
  Row("best " + R.Objective, llvm::formatv("{0:f4}{1}", Best, Unit));
  if (R.Optimum) {
    double Gap = (Best - R.OptimumObjective) / R.OptimumObjective * 100;
    Row("recorded optimum",
        llvm::formatv("{0:f4}{1} ({2:+f2}% from it)", R.OptimumObjective, Unit,
                      R.Maximize ? -Gap : Gap));
  }
  for (double Fraction : {0.01, 0.02}) {
    auto N = R.evaluationsToWithin(Fraction);
    Row(llvm::formatv("to within {0}%", int(Fraction * 100)).str(),
        N ? std::to_string(*N) + " evaluations" : "not reached");
  }
}
