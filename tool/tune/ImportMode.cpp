//===- ImportMode.cpp - `metacu tune --import`: a bundle's results --------===//
#include "ImportMode.h"
#include "Bundle.h"
#include "Summary.h"

#include "llvm/Support/FormatVariadic.h"

using namespace metacu::tune;

llvm::Error metacu::tune::runImportMode(const ImportOptions &Options) {
  const std::string &Dir = Options.Dir;
  auto Bundle = readBundle(Dir);
  if (!Bundle)
    return Bundle.takeError();
  auto Space = Bundle->Declared.searchSpace();
  if (!Space)
    return Space.takeError();
  std::vector<std::string> Read{Dir + "/manifest.json", Dir + "/results.jsonl"};
  if (llvm::Error Err = checkRunOutputs(Options.Outputs, Read))
    return Err;
  if (!Options.Arch.empty() && Options.Arch != Bundle->Where.Arch)
    return llvm::createStringError(Dir + " holds results for " +
                                   Bundle->Where.Arch + ", not --arch " +
                                   Options.Arch);
  auto Journal = openJournal(Options.Outputs);
  if (!Journal)
    return Journal.takeError();
  RunInfo Info;
  Info.Kernel = Bundle->Declared.Kernel;
  Info.Where = Bundle->Where;
  Info.Driver = Bundle->Driver;
  Info.Objective = Bundle->Declared.Objective;
  Info.Source = Dir;
  Info.Date = currentDate();
  Info.Note = imageNote(Bundle->Options.Image, Bundle->Where.Arch,
                        Bundle->Where.Device);
  TuneResult Run;
  Run.Strategy = Bundle->Options.Strategy;
  double Seconds = 0;
  for (auto &[Config, M] : Bundle->Results) {
    Seconds += M.totalMs() / 1000;
    if (*Journal)
      if (llvm::Error Err =
              (*Journal)->append(Info.Where, Space->toJSON(Config), M))
        return Err;
    Run.Trace.push_back({Config, std::move(M), false, Seconds});
  }
  Info.Limit.Evaluations = Run.Trace.size();
  auto Ranked = rankValid(Run.Trace, Info.Objective);
  if (!Ranked.empty())
    Run.Best = Run.Trace[Ranked.front()].Config;
  for (const std::string &D : Bundle->Duplicates)
    llvm::errs() << "metacu: warning: " << D << '\n';
  SummaryRows Extra;
  if (size_t Missing = Bundle->Candidates - Bundle->Results.size())
    Extra.emplace_back(
        "not run",
        llvm::formatv("{0} of the bundle's {1} candidates have no result "
                      "(run.py stopped early: run it again to measure them)",
                      Missing, Bundle->Candidates));
  printRunSummary(llvm::outs(), Options.Outputs, Info, *Space, Run,
                  runHeading(Info) + ", imported from " + Dir, Extra);
  return writeRunOutputs(Options.Outputs, Info, *Space, Run, std::move(Read),
                         llvm::errs());
}
