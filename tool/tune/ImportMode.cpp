//===- ImportMode.cpp - `metacu tune --import`: a bundle's results --------===//
#include "ImportMode.h"
#include "Bundle.h"
#include "Sizes.h"
#include "Summary.h"

#include "support/FileLock.h"
#include "support/Output.h"

#include "llvm/Support/FormatVariadic.h"

using namespace metacu;
using namespace metacu::tune;

/// The import of a space timed at several problem sizes: the table per
/// size, and the tuning file's entry per size (Sizes.h). The other outputs
/// hold one size's evaluations, so they are refused.
static llvm::Error importSizes(const ImportOptions &Options,
                               const BundleResults &Bundle,
                               const SearchSpace &Space, const RunInfo &Info,
                               std::vector<std::string> Read) {
  const RunOutputs &O = Options.Outputs;
  if (!O.T4.empty() || !O.KTCache.empty() || !O.Html.empty() ||
      !O.Journal.empty())
    return llvm::createStringError(
        "--t4, --kt-cache, --html and --journal hold one problem size's "
        "evaluations; " +
        Options.Dir + " timed every candidate at " +
        std::to_string(Bundle.Declared.Sizes.size()) +
        " sizes (the summary and --tuning-file give each)");
  std::vector<SizeRun> Runs = sizeRuns(Bundle);
  llvm::outs() << runHeading(Info) << ", imported from " << Options.Dir << '\n';
  llvm::outs() << llvm::formatv(
      "  {0,-22} {1} valid configurations, {2} candidates timed at {3} "
      "sizes\n",
      "space", Space.size(), Bundle.Results.size(), Runs.size());
  printSizeTable(llvm::outs(), Space, Info.Objective,
                 analyseSizes(Info.Objective, Runs));
  if (O.TuningFile.empty())
    return llvm::Error::success();
  auto Entries = sizeEntries(Info, Space, Runs);
  if (!Entries)
    return llvm::createStringError(O.TuningFile + ": " +
                                   llvm::toString(Entries.takeError()));
  // Held from reading the tuning file to writing it, as writeRunOutputs
  // holds it.
  auto Lock = FileLock::acquire(O.TuningFile);
  if (!Lock)
    return Lock.takeError();
  auto U = mergeIntoTuningFile(O.TuningFile, Info, *Entries, O.Force);
  if (!U)
    return U.takeError();
  if (U->Text)
    if (llvm::Error Err = writeOutput(O.TuningFile, *U->Text, Read))
      return Err;
  for (const auto &[Key, Entry, Merge] : U->Merges)
    llvm::errs() << "metacu tune: " << O.TuningFile << ": "
                 << Merge.describe(Key, Entry) << '\n';
  return llvm::Error::success();
}

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
  RunInfo Info;
  Info.Kernel = Bundle->Declared.Kernel;
  Info.Where = Bundle->Where;
  Info.Driver = Bundle->Driver;
  Info.Objective = Bundle->Declared.Objective;
  Info.Source = Dir;
  Info.Date = currentDate();
  Info.Note = imageNote(Bundle->Options.Image, Bundle->Where.Arch,
                        Bundle->Where.Device);
  if (!Bundle->Declared.Sizes.empty())
    return importSizes(Options, *Bundle, *Space, Info, std::move(Read));
  auto Journal = openJournal(Options.Outputs);
  if (!Journal)
    return Journal.takeError();
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
