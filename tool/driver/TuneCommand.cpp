//===- TuneCommand.cpp - The `metacu tune` subcommand ---------------------===//
//
// Options of `metacu tune` and what they run: a strategy against a kernel
// on the GPU (its space declared in the kernel's file), the two steps of the
// same for a GPU machine without LLVM (--emit-bundle, then --import), or
// replay of a Kernel Tuner cache file's recorded times. Every mode ends with
// the same outputs: the summary, the tuning file, the HTML report, T4.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"

#include "toolchain/Arch.h"
#include "tune/Bundle.h"
#include "tune/HtmlReport.h"
#include "tune/KernelTunerCache.h"
#include "tune/Predictions.h"
#include "tune/Progress.h"
#include "tune/Random.h"
#include "tune/Replay.h"
#include "tune/ResultCache.h"
#include "tune/Sizes.h"
#include "tune/Summary.h"
#include "tune/T4.h"
#include "tune/Tuner.h"
#include "tune/TuningFile.h"
#include "tune/kernel/KernelSource.h"
#include "tune/kernel/Predict.h"
#include "tune/runners/Gpu.h"
#include "tune/strategies/Strategy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "support/FileLock.h"
#include "support/Output.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <thread>

using namespace metacu;
namespace cl = llvm::cl;

cl::SubCommand metacu::TuneSubcommand(
    "tune", "Search the tuning space declared in a kernel's file on the "
            "GPU, or replay a Kernel Tuner cache's recorded times");

static cl::opt<std::string> InputFile(cl::Positional, cl::desc("<kernel file>"),
                                      cl::sub(TuneSubcommand));
static cl::opt<std::string>
    KernelName("kernel",
               cl::desc("Which tuning space of the file (when it declares "
                        "several)"),
               cl::value_desc("name"), cl::sub(TuneSubcommand),
               cl::cat(MetacuCategory));
static cl::opt<std::string> EmitBundle(
    "emit-bundle",
    cl::desc("Write the candidates, the harness and run.py to this folder, "
             "to build and run with nvcc alone on a GPU machine"),
    cl::value_desc("dir"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    ImportDir("import", cl::desc("Read the results of a bundle's run.py back"),
              cl::value_desc("dir"), cl::sub(TuneSubcommand),
              cl::cat(MetacuCategory));
static cl::opt<std::string> ImageName(
    "image",
    cl::desc("What nvcc builds for --arch N: sm_N (default) or compute_M, "
             "PTX the driver compiles for the GPU (compute_80 on an H100)"),
    cl::value_desc("sm_N|compute_N"), cl::sub(TuneSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<unsigned>
    BatchSize("batch-size",
              cl::desc("Candidates per expansion and translation unit: a "
                       "bundle's, or a round's on the GPU (default: 64)"),
              cl::value_desc("N"), cl::sub(TuneSubcommand),
              cl::cat(MetacuCategory));
static cl::list<unsigned> GpuIds("gpu",
                                 cl::desc("Run on this GPU (repeatable: one "
                                          "worker per GPU; default 0)"),
                                 cl::value_desc("N"), cl::sub(TuneSubcommand),
                                 cl::cat(MetacuCategory));
static cl::opt<bool> AllGpus("gpus-all", cl::desc("Run on every GPU"),
                             cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<unsigned>
    Jobs("jobs", cl::desc("Parallel nvcc processes (default: every core)"),
         cl::value_desc("N"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    WorkDir("work-dir",
            cl::desc("Where the GPU runner writes each batch's bundle "
                     "(default: <kernel file>.tune/ in the current folder)"),
            cl::value_desc("dir"), cl::sub(TuneSubcommand),
            cl::cat(MetacuCategory));
static cl::opt<std::string> KTCachePath(
    "kt-cache",
    cl::desc("Also write the evaluations as a Kernel Tuner cache file "
             "(what --replay reads)"),
    cl::value_desc("out.json"), cl::sub(TuneSubcommand),
    cl::cat(MetacuCategory));

static cl::opt<std::string>
    ReplayPath("replay",
               cl::desc("Answer from this Kernel Tuner cache file's "
                        "recorded times instead of a GPU"),
               cl::value_desc("cache.json[.gz]"), cl::sub(TuneSubcommand),
               cl::cat(MetacuCategory));
static cl::opt<std::string>
    StrategyName("strategy",
                 cl::desc("Search strategy (--list-strategies; default: the "
                          "best on the recorded spaces)"),
                 cl::value_desc("name"), cl::sub(TuneSubcommand),
                 cl::cat(MetacuCategory));
static cl::opt<std::string> PredictionsPath(
    "predictions",
    cl::desc("What the model predicts of each configuration, for --strategy "
             "model with --replay (scripts/model-vs-measured --predictions "
             "writes it from the kernel's code)"),
    cl::value_desc("file.json"), cl::sub(TuneSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<std::string> PredictPath(
    "predict",
    cl::desc("Write what the model predicts of every configuration of the "
             "kernel's space to this file, from the candidates' code and no "
             "GPU, and stop (what --predictions reads)"),
    cl::value_desc("out.json"), cl::sub(TuneSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<std::string> BuildCacheDir(
    "build-cache",
    cl::desc("Keep the candidates' PTX and ptxas logs that predictions are "
             "made from in this folder and use them again: predicting the "
             "same candidates again (a changed model, a stopped run) costs "
             "their expansion alone"),
    cl::value_desc("dir"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<bool> ListStrategies("list-strategies",
                                    cl::desc("Print the strategies and exit"),
                                    cl::sub(TuneSubcommand),
                                    cl::cat(MetacuCategory));
static cl::opt<uint64_t> Seed("seed",
                              cl::desc("Seed of the strategy's random "
                                       "choices (default 1)"),
                              cl::init(1), cl::sub(TuneSubcommand),
                              cl::cat(MetacuCategory));
static cl::opt<unsigned>
    BudgetEvals("budget",
                cl::desc("Stop after N unique evaluations (default with "
                         "--replay and no --time-limit: 1000)"),
                cl::value_desc("N"), cl::sub(TuneSubcommand),
                cl::cat(MetacuCategory));
static cl::opt<std::string>
    TimeLimit("time-limit",
              cl::desc("Stop after this long: 90, 90s, 15m or 2h (replay "
                       "counts the recorded time of each evaluation)"),
              cl::value_desc("T"), cl::sub(TuneSubcommand),
              cl::cat(MetacuCategory));
static cl::opt<std::string>
    T4Path("t4", cl::desc("Write every evaluation, in order, in T4 format"),
           cl::value_desc("out.json"), cl::sub(TuneSubcommand),
           cl::cat(MetacuCategory));
static cl::opt<std::string>
    JournalPath("journal",
                cl::desc("Resume from and append each result to this "
                         "journal (JSON lines)"),
                cl::value_desc("file"), cl::sub(TuneSubcommand),
                cl::cat(MetacuCategory));
static cl::opt<std::string>
    TuningFilePath("tuning-file",
                   cl::desc("Record the best configuration as the --arch "
                            "entry of this JSON file, which the kernel's "
                            "meta code reads"),
                   cl::value_desc("file.json"), cl::sub(TuneSubcommand),
                   cl::cat(MetacuCategory));
static cl::opt<std::string>
    ArchName("arch",
             cl::desc("The architecture the results are for (replay: the "
                      "recorded device's), e.g. 86 or 90a"),
             cl::value_desc("arch"), cl::sub(TuneSubcommand),
             cl::cat(MetacuCategory));
static cl::opt<bool>
    Force("force",
          cl::desc("Write the tuning file's entry even when the recorded one "
                   "is better on the same device, or is for another kernel; "
                   "write --emit-bundle's folder over an earlier bundle's "
                   "results or files metacu did not write"),
          cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<std::string>
    ReportPath("report",
               cl::desc("Write a self-contained HTML report of the run"),
               cl::value_desc("out.html"), cl::sub(TuneSubcommand),
               cl::cat(MetacuCategory));
static cl::opt<bool> Quiet("quiet", cl::desc("Show no progress"),
                           cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<unsigned>
    TopConfigs("top",
               cl::desc("How many of the best configurations the summary "
                        "and the report list (default 10)"),
               cl::init(10), cl::value_desc("N"), cl::sub(TuneSubcommand),
               cl::cat(MetacuCategory));

/// Seconds in "90", "90s", "15m" or "2h".
static std::optional<double> parseDuration(llvm::StringRef Text) {
  double Scale = 1;
  if (Text.consume_back("h"))
    Scale = 3600;
  else if (Text.consume_back("m"))
    Scale = 60;
  else
    Text.consume_back("s");
  double Value;
  if (Text.getAsDouble(Value) || !(Value > 0))
    return std::nullopt;
  return Value * Scale;
}

static int fail(const llvm::Twine &Message) {
  return reportFailure(llvm::createStringError(Message.str()));
}

/// --arch as one architecture name ("sm_90"), or an error message.
static llvm::Expected<std::string> oneArch() {
  auto Archs = ArchList::parse(ArchName);
  if (!Archs)
    return llvm::createStringError("--arch: " +
                                   llvm::toString(Archs.takeError()));
  if (Archs->archs().size() != 1)
    return llvm::createStringError("--arch: results are for one "
                                   "architecture, not " +
                                   Archs->names());
  return Archs->archs().front().name();
}

/// \p Read without the tuning file: the kernel's meta code may read it,
/// and the run updates it on purpose.
static std::vector<std::string>
withoutTuningFile(std::vector<std::string> Read) {
  if (!TuningFilePath.empty())
    llvm::erase_if(Read, [](const std::string &P) {
      return llvm::sys::fs::equivalent(P, TuningFilePath);
    });
  return Read;
}

/// Before the run: no output (the journal among them) may replace a file
/// the run reads (\p Read) or another output, and the tuning file to update
/// must read, so that a long run cannot end in an error it could have
/// begun with.
static llvm::Error checkOutputs(std::vector<std::string> Read) {
  std::vector<std::string> Outputs;
  for (const cl::opt<std::string> *P :
       {&T4Path, &KTCachePath, &TuningFilePath, &ReportPath, &PredictPath,
        &JournalPath})
    if (!P->empty())
      Outputs.push_back(*P);
  if (llvm::Error E =
          checkOutputPaths(Outputs, withoutTuningFile(std::move(Read))))
    return E;
  if (!TuningFilePath.empty())
    if (auto File = tune::TuningFile::read(TuningFilePath); !File)
      return File.takeError();
  return llvm::Error::success();
}

/// Every output file asked for, all made before any is written and then
/// written together: a run that fails (a tuning file changed into one that
/// does not read) changes none. \p Read: the files the run read.
static int writeRunOutputs(const tune::RunInfo &Info,
                           const tune::SearchSpace &Space,
                           const tune::TuneResult &Run,
                           std::vector<std::string> Read) {
  std::vector<OutputFile> Files;
  if (!T4Path.empty()) {
    auto F = tune::t4File(T4Path, Space, Run.Trace, Info.Objective.Name);
    if (!F)
      return fail(llvm::toString(F.takeError()));
    Files.push_back(std::move(*F));
  }
  if (!KTCachePath.empty()) {
    tune::KernelTunerCache Cache;
    Cache.DeviceName = Info.Where.Device;
    Cache.KernelName = Info.Kernel;
    Cache.Objective = Info.Objective.Name;
    Cache.Params.assign(Space.parameters().begin(), Space.parameters().end());
    for (const tune::Evaluation &E : Run.Trace)
      Cache.record(Space, E.Config, E.M);
    auto F = Cache.file(KTCachePath);
    if (!F)
      return fail(llvm::toString(F.takeError()));
    Files.push_back(std::move(*F));
  }
  if (!ReportPath.empty())
    Files.push_back(
        {ReportPath, tune::renderHtmlReport(Info, Space, Run, TopConfigs)});
  // Held from reading the tuning file to writing it: a run updating it at
  // the same time waits, then merges into what this one wrote.
  std::optional<FileLock> Lock;
  std::optional<tune::TuningEntry> Entry;
  std::optional<tune::TuningFileUpdate> Update;
  if (!TuningFilePath.empty()) {
    auto E = tune::bestEntry(Info, Space, Run);
    if (!E)
      return fail(TuningFilePath + ": " + llvm::toString(E.takeError()));
    auto L = FileLock::acquire(TuningFilePath);
    if (!L)
      return reportFailure(L.takeError());
    Lock.emplace(std::move(*L));
    auto U = tune::mergeIntoTuningFile(TuningFilePath, Info, *E, Force);
    if (!U)
      return fail(llvm::toString(U.takeError()));
    if (U->Text)
      Files.push_back({TuningFilePath, *U->Text});
    Entry = std::move(*E);
    Update = std::move(*U);
  }
  if (!JournalPath.empty())
    Read.push_back(JournalPath);
  if (llvm::Error Err = writeOutputs(Files, withoutTuningFile(std::move(Read))))
    return reportFailure(std::move(Err));
  if (Update)
    llvm::errs() << "metacu tune: " << TuningFilePath << ": "
                 << Update->Merge.describe(Info.Where.Arch, *Entry) << '\n';
  return 0;
}

/// The summary, then every output file asked for: what a GPU run and an
/// import share.
static int finish(const tune::RunInfo &Info, const tune::SearchSpace &Space,
                  const tune::TuneResult &Run, llvm::StringRef Heading,
                  std::vector<std::string> Read, tune::SummaryRows Extra = {}) {
  size_t Invalid = 0, Resumed = 0;
  for (const tune::Evaluation &E : Run.Trace) {
    Invalid += !E.M.valid();
    Resumed += E.Resumed;
  }
  llvm::outs() << Heading << '\n';
  tune::SummaryRows Rows;
  Rows.emplace_back("space",
                    llvm::formatv("{0} valid configurations", Space.size()));
  Rows.emplace_back("strategy", Run.Strategy);
  std::string Evals = std::to_string(Run.Trace.size()) + " (" +
                      std::to_string(Invalid) + " invalid";
  if (Resumed)
    Evals += ", " + std::to_string(Resumed) + " from the journal";
  Rows.emplace_back("evaluations", Evals + ")");
  Rows.insert(Rows.end(), Extra.begin(), Extra.end());
  if (!Info.Note.empty())
    Rows.emplace_back("note", Info.Note);
  tune::printSummary(llvm::outs(), Rows, Space, Run.Trace, Info.Objective,
                     TopConfigs);
  return writeRunOutputs(Info, Space, Run, std::move(Read));
}

/// "matmul on NVIDIA H100 80GB HBM3 (sm_90)", or "matmul for sm_90" when
/// no result names the device (every candidate failed to build).
static std::string heading(const tune::RunInfo &Info) {
  if (Info.Where.Device.empty())
    return Info.Kernel + " for " + Info.Where.Arch;
  return llvm::formatv("{0} on {1} ({2})", Info.Kernel, Info.Where.Device,
                       Info.Where.Arch)
      .str();
}

/// "compute_80 image run on NVIDIA H100 80GB HBM3" when the image is not
/// the device's own code.
static std::string imageNote(llvm::StringRef Image, llvm::StringRef Arch,
                             llvm::StringRef Device) {
  if (Image.empty() || Image == Arch)
    return "";
  return (Image + " image run on " + (Device.empty() ? "the GPU" : Device))
      .str();
}

/// `--import DIR` of a space timed at several problem sizes: the table per
/// size and the tuning file's entry per size (tune/Sizes.h).
static int importSizes(const tune::BundleResults &Bundle,
                       const tune::SearchSpace &Space,
                       std::vector<std::string> Read) {
  if (!T4Path.empty() || !KTCachePath.empty() || !ReportPath.empty() ||
      !JournalPath.empty())
    return fail("--t4, --kt-cache, --report and --journal hold one problem "
                "size's evaluations; " +
                ImportDir + " timed every candidate at " +
                std::to_string(Bundle.Declared.Sizes.size()) +
                " sizes (the summary and --tuning-file give each)");
  tune::RunInfo Info;
  Info.Kernel = Bundle.Declared.Kernel;
  Info.Where = Bundle.Where;
  Info.Driver = Bundle.Driver;
  Info.Objective = Bundle.Declared.Objective;
  Info.Source = ImportDir;
  Info.Date = tune::currentDate();
  Info.Note =
      imageNote(Bundle.Options.Image, Bundle.Where.Arch, Bundle.Where.Device);
  std::vector<tune::SizeRun> Runs = tune::sizeRuns(Bundle);
  llvm::outs() << heading(Info) << ", imported from " << ImportDir << '\n';
  llvm::outs() << llvm::formatv(
      "  {0,-22} {1} valid configurations, {2} candidates timed at {3} "
      "sizes\n",
      "space", Space.size(), Bundle.Results.size(), Runs.size());
  tune::printSizeTable(llvm::outs(), Space, Info.Objective,
                       tune::analyseSizes(Info.Objective, Runs));
  if (TuningFilePath.empty())
    return 0;
  auto Entries = tune::sizeEntries(Info, Space, Runs);
  if (!Entries)
    return fail(TuningFilePath + ": " + llvm::toString(Entries.takeError()));
  auto Lock = FileLock::acquire(TuningFilePath);
  if (!Lock)
    return reportFailure(Lock.takeError());
  auto U =
      tune::mergeSizesIntoTuningFile(TuningFilePath, Info, *Entries, Force);
  if (!U)
    return fail(llvm::toString(U.takeError()));
  if (U->Text)
    if (llvm::Error Err = writeOutput(TuningFilePath, *U->Text,
                                      withoutTuningFile(std::move(Read))))
      return reportFailure(std::move(Err));
  for (const auto &[Key, Entry, Merge] : U->Merges)
    llvm::errs() << "metacu tune: " << TuningFilePath << ": "
                 << Merge.describe(Key, Entry) << '\n';
  return 0;
}

/// `--import DIR`: a bundle's results as a run of the bundle's strategy.
static int importBundle() {
  auto Bundle = tune::readBundle(ImportDir);
  if (!Bundle)
    return fail(llvm::toString(Bundle.takeError()));
  auto Space = Bundle->Declared.searchSpace();
  if (!Space)
    return fail(llvm::toString(Space.takeError()));
  std::vector<std::string> Read{ImportDir + "/manifest.json",
                                ImportDir + "/results.jsonl"};
  if (llvm::Error Err = checkOutputs(Read))
    return reportFailure(std::move(Err));
  if (!ArchName.empty()) {
    auto Arch = oneArch();
    if (!Arch)
      return fail(llvm::toString(Arch.takeError()));
    if (*Arch != Bundle->Where.Arch)
      return fail(ImportDir + " holds results for " + Bundle->Where.Arch +
                  ", not --arch " + *Arch);
  }
  if (!Bundle->Declared.Sizes.empty())
    return importSizes(*Bundle, *Space, std::move(Read));
  std::unique_ptr<tune::ResultCache> Journal;
  if (!JournalPath.empty()) {
    auto J = tune::ResultCache::open(JournalPath);
    if (!J)
      return fail(llvm::toString(J.takeError()));
    Journal = std::move(*J);
  }
  tune::RunInfo Info;
  Info.Kernel = Bundle->Declared.Kernel;
  Info.Where = Bundle->Where;
  Info.Driver = Bundle->Driver;
  Info.Objective = Bundle->Declared.Objective;
  Info.Source = ImportDir;
  Info.Date = tune::currentDate();
  Info.Note = imageNote(Bundle->Options.Image, Bundle->Where.Arch,
                        Bundle->Where.Device);
  tune::TuneResult Run;
  Run.Strategy = Bundle->Options.Strategy;
  double Seconds = 0;
  for (auto &[Config, M] : Bundle->Results) {
    Seconds += M.totalMs() / 1000;
    if (Journal)
      if (llvm::Error Err =
              Journal->append(Info.Where, Space->toJSON(Config), M))
        return fail(llvm::toString(std::move(Err)));
    Run.Trace.push_back({Config, std::move(M), false, Seconds});
  }
  Info.Limit.Evaluations = Run.Trace.size();
  auto Ranked = tune::rankValid(Run.Trace, Info.Objective);
  if (!Ranked.empty())
    Run.Best = Run.Trace[Ranked.front()].Config;
  for (const std::string &D : Bundle->Duplicates)
    llvm::errs() << "metacu: warning: " << D << '\n';
  tune::SummaryRows Extra;
  if (size_t Missing = Bundle->Candidates - Bundle->Results.size())
    Extra.emplace_back(
        "not run",
        llvm::formatv("{0} of the bundle's {1} candidates have no result "
                      "(run.py stopped early: run it again to measure them)",
                      Missing, Bundle->Candidates));
  return finish(Info, *Space, Run,
                heading(Info) + ", imported from " + ImportDir, std::move(Read),
                std::move(Extra));
}

/// The configurations a bundle holds: all of them, or a seeded random
/// sample of --budget.
static llvm::Expected<std::vector<uint32_t>>
bundleConfigs(const tune::SearchSpace &Space, llvm::StringRef Strategy) {
  std::vector<uint32_t> All(Space.size());
  for (uint32_t I = 0; I < All.size(); ++I)
    All[I] = I;
  if (Strategy == "brute_force")
    return All;
  if (Strategy == "random_sample") {
    tune::Random R(Seed);
    R.shuffle(All);
    if (BudgetEvals.getNumOccurrences() && BudgetEvals < All.size())
      All.resize(BudgetEvals);
    return All;
  }
  return llvm::createStringError(
      "--emit-bundle: a bundle holds a fixed set of candidates "
      "(--strategy brute_force or random_sample); '" +
      Strategy +
      "' chooses as it measures: run it where metacu and the GPU are both, "
      "or --replay the imported results (--kt-cache)");
}

/// A kernel file: --emit-bundle, or the whole search on this machine's GPU.
static int tuneKernel() {
  if (ArchName.empty())
    return fail("--arch: which architecture to tune for (e.g. 90)");
  auto Arch = oneArch();
  if (!Arch)
    return fail(llvm::toString(Arch.takeError()));
  std::string Image = ImageName.empty() ? *Arch : ImageName.getValue();
  // The expansion's passes are the image's architecture: a compute_80 image
  // holds the code an sm_80 build would.
  llvm::StringRef ImageNumber = Image;
  if (!ImageNumber.consume_front("compute_") &&
      !ImageNumber.consume_front("sm_"))
    return fail("--image: sm_N or compute_N, not '" + Image + "'");
  auto ImageArchs = ArchList::parse(ImageNumber);
  if (!ImageArchs)
    return fail("--image: " + llvm::toString(ImageArchs.takeError()));
  auto Opts = pipelineOptionsFor(InputFile);
  if (!Opts)
    return reportFailure(Opts.takeError());
  auto Kernel =
      tune::KernelSource::describe(InputFile, KernelName, *ImageArchs, *Opts);
  if (!Kernel)
    return reportFailure(Kernel.takeError());
  auto Space = Kernel->Declared.searchSpace();
  if (!Space)
    return fail(llvm::toString(Space.takeError()));
  if (!Kernel->Declared.Sizes.empty() && EmitBundle.empty() &&
      PredictPath.empty())
    return fail("tune_space '" + Kernel->Declared.Kernel + "' declares " +
                std::to_string(Kernel->Declared.Sizes.size()) +
                " problem sizes: tune them with --emit-bundle DIR and "
                "--import DIR, which time every candidate at each size (a "
                "search here optimises one objective)");
  std::vector<std::string> Read = Kernel->Dependencies;
  if (!PredictionsPath.empty())
    Read.push_back(PredictionsPath);
  if (llvm::Error Err = checkOutputs(Read))
    return reportFailure(std::move(Err));

  // The model's predictions: read, or made here from the candidates' code
  // for the image on --arch (needed by --predict and --strategy model).
  std::optional<tune::Predictions> Predicted;
  // --predict's file is written after every round, so a run stopped early
  // leaves what it predicted (a uniform random sample of the space).
  auto Write = [&](const tune::Predictions &So) {
    llvm::json::Object Header{{"kernel", Kernel->Declared.Kernel},
                              {"source", llvm::sys::path::filename(InputFile)},
                              {"arch", *Arch},
                              {"image", Image}};
    std::string Text;
    llvm::raw_string_ostream(Text)
        << llvm::formatv("{0:1}", So.toJSON(*Space, std::move(Header))) << '\n';
    return writeOutput(PredictPath, Text, Read);
  };
  const tune::StrategyInfo *Strategy = tune::findStrategy(
      StrategyName.empty() ? tune::defaultStrategy() : StrategyName);
  if (!PredictionsPath.empty()) {
    auto P = tune::Predictions::read(PredictionsPath, *Space);
    if (!P)
      return fail(llvm::toString(P.takeError()));
    Predicted = std::move(*P);
  } else if (!PredictPath.empty() ||
             (Strategy && Strategy->NeedsPredictions && EmitBundle.empty())) {
    auto Target = ArchList::parse(*Arch);
    if (!Target)
      return fail(llvm::toString(Target.takeError()));
    tune::PredictOptions P;
    P.Target = Target->archs().front();
    P.ExpandFor = *ImageArchs;
    if (llvm::StringRef(Image).starts_with("compute_"))
      P.PtxArch = Image;
    P.Nvcc = Opts->Toolkit.Root + "/bin/nvcc";
    P.BatchSize =
        BatchSize.getNumOccurrences() ? std::max(1u, BatchSize.getValue()) : 32;
    P.Jobs = Jobs ? Jobs.getValue()
                  : std::max(1u, std::thread::hardware_concurrency());
    auto Report = [](size_t Done, size_t Total) {
      if (!Quiet)
        llvm::errs() << llvm::formatv(
            "metacu tune: predicted {0} of {1} configurations\n", Done, Total);
    };
    P.Progress = Report;
    P.CacheDir = BuildCacheDir;
    if (!PredictPath.empty())
      P.AfterRound = Write;
    auto Made = tune::predictSpace(*Kernel, *Space, *Opts, P);
    if (!Made)
      return fail(llvm::toString(Made.takeError()));
    Predicted = std::move(*Made);
  }
  if (!PredictPath.empty()) {
    if (llvm::Error Err = Write(*Predicted))
      return reportFailure(std::move(Err));
    return 0;
  }

  tune::BundleOptions B;
  B.Arch = *Arch;
  B.Image = Image;
  // A round costs an expansion and a few nvcc runs whatever it holds
  // (run.py compiles it in shards over the cores), so rounds are large: on
  // an H100 machine, 30 random configurations took 0.82 s each in rounds
  // of 16 and 0.41 s in one round. A local search's rounds are what it
  // proposes at once (its neighbours), fewer.
  B.BatchSize =
      BatchSize.getNumOccurrences() ? std::max(1u, BatchSize.getValue()) : 64;
  B.RuntimeInclude = Opts->RuntimeInclude;
  B.SourceDir = Kernel->SourceDir;
  B.Files = Kernel->Files;
  B.Strategy = StrategyName.empty() ? "brute_force" : StrategyName.getValue();
  B.Force = Force;
  auto Generate = [&](llvm::ArrayRef<tune::Candidate> Batch) {
    return Kernel->generate(Batch, *ImageArchs, *Opts);
  };

  if (!EmitBundle.empty()) {
    auto Configs = bundleConfigs(*Space, B.Strategy);
    if (!Configs)
      return fail(llvm::toString(Configs.takeError()));
    if (llvm::Error Err = tune::writeBundle(EmitBundle, Kernel->Declared,
                                            *Space, *Configs, B, Generate))
      return reportFailure(std::move(Err));
    llvm::errs() << llvm::formatv(
        "metacu tune: {0}: {1} candidates of {2} ({3} valid configurations); "
        "run `python3 {0}/run.py` on the GPU machine, then `metacu tune "
        "--import {0}`\n",
        EmitBundle, Configs->size(), Kernel->Declared.Kernel, Space->size());
    return 0;
  }

  tune::GpuRunnerOptions G;
  G.Bundle = B;
  G.WorkDir = WorkDir.empty()
                  ? (llvm::sys::path::filename(InputFile) + ".tune").str()
                  : WorkDir.getValue();
  if (AllGpus)
    G.Gpus = "all";
  else if (!GpuIds.empty())
    G.Gpus = llvm::join(
        llvm::map_range(GpuIds, [](unsigned N) { return std::to_string(N); }),
        ",");
  G.Jobs = Jobs;
  G.Nvcc = Opts->Toolkit.Root + "/bin/nvcc";
  auto Runner = tune::GpuRunner::create(Kernel->Declared, *Space, G, Generate);
  if (!Runner)
    return fail(llvm::toString(Runner.takeError()));

  std::unique_ptr<tune::ResultCache> Journal;
  if (!JournalPath.empty()) {
    auto J = tune::ResultCache::open(JournalPath);
    if (!J)
      return fail(llvm::toString(J.takeError()));
    Journal = std::move(*J);
  }
  tune::RunInfo Info;
  Info.Kernel = Kernel->Declared.Kernel;
  Info.Where = (*Runner)->target();
  Info.Driver = (*Runner)->driver();
  Info.Objective = Kernel->Declared.Objective;
  Info.Source = InputFile;
  Info.Note = imageNote(Image, *Arch, Info.Where.Device);
  tune::TuneOptions Tune;
  Tune.Strategy = StrategyName;
  Tune.Seed = Seed;
  if (BudgetEvals.getNumOccurrences())
    Tune.Evaluation.Limit.Evaluations = BudgetEvals.getValue();
  if (!TimeLimit.empty()) {
    auto Seconds = parseDuration(TimeLimit);
    if (!Seconds)
      return fail("--time-limit: expected a positive duration such as 90, "
                  "90s, 15m or 2h, not '" +
                  TimeLimit + "'");
    Tune.Evaluation.Limit.Seconds = *Seconds;
  }
  Tune.Evaluation.Objective = Info.Objective;
  Tune.Evaluation.Journal = Journal.get();
  Tune.Evaluation.Predicted = Predicted ? &*Predicted : nullptr;
  std::optional<tune::Progress> Progress;
  if (!Quiet)
    Tune.Evaluation.Listener =
        &Progress.emplace(llvm::errs(), tune::Progress::styleForStderr());
  Info.Limit = Tune.Evaluation.Limit;
  auto Run = tune::runTuning(*Space, **Runner, Tune);
  if (!Run)
    return fail(llvm::toString(Run.takeError()));
  Info.Date = tune::currentDate();
  return finish(Info, *Space, *Run, heading(Info), std::move(Read));
}

int metacu::runTuneCommand() {
  if (ListStrategies) {
    for (const tune::StrategyInfo &S : tune::strategies())
      llvm::outs() << llvm::formatv("{0,-15} {1}\n", S.Name, S.Summary);
    return 0;
  }
  if (!ImportDir.empty())
    return importBundle();
  if (!InputFile.empty()) {
    if (!ReplayPath.empty())
      return fail("--replay answers from a cache file, not a kernel file");
    return tuneKernel();
  }
  if (ReplayPath.empty())
    return fail("no kernel file: metacu tune KERNEL.cu --arch N, --import "
                "DIR or --replay CACHE.json[.gz]");
  if (!PredictPath.empty())
    return fail("--predict predicts a kernel file's candidates, not a "
                "cache's: metacu tune KERNEL.cu --arch N --predict OUT.json");
  tune::ReplayOptions Options;
  Options.CachePath = ReplayPath;
  Options.Strategy = StrategyName;
  Options.Seed = Seed;
  Options.JournalPath = JournalPath;
  Options.PredictionsPath = PredictionsPath;
  if (BudgetEvals.getNumOccurrences()) {
    if (BudgetEvals == 0)
      return fail("--budget must be at least 1");
    Options.Limit.Evaluations = BudgetEvals;
  }
  if (!TimeLimit.empty()) {
    auto Seconds = parseDuration(TimeLimit);
    if (!Seconds)
      return fail("--time-limit: expected a positive duration such as 90, "
                  "90s, 15m or 2h, not '" +
                  TimeLimit + "'");
    Options.Limit.Seconds = *Seconds;
  }
  if (!Options.Limit.Evaluations && !Options.Limit.Seconds)
    Options.Limit.Evaluations = 1000;
  if (!ArchName.empty()) {
    auto Archs = ArchList::parse(ArchName);
    if (!Archs)
      return fail("--arch: " + llvm::toString(Archs.takeError()));
    if (Archs->archs().size() != 1)
      return fail("--arch: results are for one architecture, not " +
                  Archs->names());
    Options.Arch = Archs->archs().front().name();
  } else if (!TuningFilePath.empty()) {
    return fail("--tuning-file needs --arch: a cache records the device, "
                "not the architecture its entry is for");
  }

  std::vector<std::string> Read{ReplayPath};
  if (!PredictionsPath.empty())
    Read.push_back(PredictionsPath);
  if (llvm::Error Err = checkOutputs(Read))
    return reportFailure(std::move(Err));

  std::optional<tune::Progress> Progress;
  if (!Quiet)
    Options.Listener =
        &Progress.emplace(llvm::errs(), tune::Progress::styleForStderr());
  auto Result = tune::replay(Options);
  if (!Result)
    return fail(llvm::toString(Result.takeError()));
  tune::printReplaySummary(llvm::outs(), *Result, TopConfigs);
  return writeRunOutputs(Result->Info, Result->Space, Result->Run,
                         std::move(Read));
}
