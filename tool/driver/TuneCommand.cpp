//===- TuneCommand.cpp - The `metacu tune` subcommand ---------------------===//
//
// Options of `metacu tune`, and which mode they select: a strategy against
// a kernel on the GPU (its space declared in the kernel's file), the two
// steps of the same for a GPU machine without LLVM (--emit-bundle, then
// --import), the model's predictions (--predict), or replay of a Kernel
// Tuner cache file's recorded times. The modes live in tool/tune, one entry
// point each (KernelModes.h, ImportMode.h, ReplayMode.h); this file parses
// and validates the options, refusing one the mode does not read.
//
//===----------------------------------------------------------------------===//
#include "driver/Commands.h"
#include "driver/Options.h"

#include "toolchain/Arch.h"
#include "tune/ImportMode.h"
#include "tune/ReplayMode.h"
#include "tune/kernel/KernelModes.h"
#include "tune/strategies/Strategy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <memory>
#include <optional>

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
                       "bundle's, or a round's on the GPU (default: 64; "
                       "--replay with --jobs: --jobs)"),
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
    Jobs("jobs",
         cl::desc("Parallel nvcc processes (default: every core); with "
                  "--replay, replay in rounds as on a GPU machine of N "
                  "cores and print the modelled wall clock"),
         cl::value_desc("N"), cl::sub(TuneSubcommand), cl::cat(MetacuCategory));
static cl::opt<double> RoundSeconds(
    "round-seconds",
    cl::desc("--replay --jobs: each round's fixed cost in seconds (default 8)"),
    cl::init(8), cl::value_desc("S"), cl::sub(TuneSubcommand),
    cl::cat(MetacuCategory));
static cl::opt<double> CompileSeconds(
    "compile-seconds",
    cl::desc("--replay --jobs: one configuration's compile in seconds on one "
             "core (default 3)"),
    cl::init(3), cl::value_desc("S"), cl::sub(TuneSubcommand),
    cl::cat(MetacuCategory));
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
    HtmlPath("html",
             cl::desc("Write a self-contained HTML report of the run (not "
                      "`metacu report`'s, which is of a kernel's code)"),
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
  if (Text.getAsDouble(Value) || !(Value > 0) || !std::isfinite(Value))
    return std::nullopt;
  return Value * Scale;
}

static int fail(const llvm::Twine &Message) {
  return reportFailure(llvm::createStringError(Message.str()));
}

namespace {
/// What `metacu tune` is asked to do.
enum Mode : unsigned {
  GpuRun = 1 << 0,  // KERNEL.cu: the search on this machine's GPU
  Bundle = 1 << 1,  // KERNEL.cu --emit-bundle DIR
  Predict = 1 << 2, // KERNEL.cu --predict OUT.json
  Import = 1 << 3,  // --import DIR
  Replay = 1 << 4,  // --replay CACHE
};
constexpr unsigned AnyMode = GpuRun | Bundle | Predict | Import | Replay;
constexpr unsigned Runs = GpuRun | Import | Replay; // they write RunOutputs

/// Which modes read an option: one the mode does not read is an error, not
/// silently ignored.
struct OptionUse {
  const cl::Option *Option;
  unsigned Modes;
};
} // namespace

static const OptionUse OptionUses[] = {
    {&KernelName, GpuRun | Bundle | Predict},
    {&ImageName, GpuRun | Bundle | Predict},
    {&BatchSize, GpuRun | Bundle | Predict | Replay},
    {std::addressof(GpuIds), GpuRun}, // cl::list overloads &
    {&AllGpus, GpuRun},
    {&Jobs, GpuRun | Predict | Replay},
    {&RoundSeconds, Replay},
    {&CompileSeconds, Replay},
    {&WorkDir, GpuRun},
    {&StrategyName, GpuRun | Bundle | Replay},
    {&PredictionsPath, GpuRun | Replay},
    {&BuildCacheDir, GpuRun | Predict},
    {&Seed, GpuRun | Bundle | Replay},
    {&BudgetEvals, GpuRun | Bundle | Replay},
    {&TimeLimit, GpuRun | Replay},
    {&ArchName, AnyMode},
    {&Force, Runs | Bundle},
    {&Quiet, AnyMode},
    {&TopConfigs, Runs},
    {&T4Path, Runs},
    {&KTCachePath, Runs},
    {&JournalPath, Runs},
    {&TuningFilePath, Runs},
    {&HtmlPath, Runs},
};

static const char *modeName(Mode M) {
  switch (M) {
  case GpuRun:
    return "a run on the GPU (metacu tune KERNEL.cu)";
  case Bundle:
    return "--emit-bundle";
  case Predict:
    return "--predict";
  case Import:
    return "--import";
  case Replay:
    return "--replay";
  }
  return "";
}

/// An error naming the first option given that \p M does not read.
static llvm::Error checkOptionsRead(Mode M) {
  for (const OptionUse &U : OptionUses)
    if (U.Option->getNumOccurrences() && !(U.Modes & M))
      return llvm::createStringError(llvm::formatv("--{0}: {1} does not use it",
                                                   U.Option->ArgStr,
                                                   modeName(M))
                                         .str());
  return llvm::Error::success();
}

/// --arch as one architecture name ("sm_90").
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

static tune::RunOutputs runOutputs() {
  tune::RunOutputs O;
  O.T4 = T4Path;
  O.KTCache = KTCachePath;
  O.TuningFile = TuningFilePath;
  O.Html = HtmlPath;
  O.Journal = JournalPath;
  O.Force = Force;
  O.Top = TopConfigs;
  return O;
}

/// --budget and --time-limit.
static llvm::Expected<tune::Budget> budget() {
  tune::Budget Limit;
  if (BudgetEvals.getNumOccurrences()) {
    if (BudgetEvals == 0)
      return llvm::createStringError("--budget must be at least 1");
    Limit.Evaluations = BudgetEvals;
  }
  if (!TimeLimit.empty()) {
    auto Seconds = parseDuration(TimeLimit);
    if (!Seconds)
      return llvm::createStringError(
          "--time-limit: expected a positive duration such as 90, 90s, 15m "
          "or 2h, not '" +
          TimeLimit + "'");
    Limit.Seconds = *Seconds;
  }
  return Limit;
}

/// A kernel file: the search on the GPU, --emit-bundle or --predict.
static llvm::Error runKernelMode(Mode M) {
  if (ArchName.empty())
    return llvm::createStringError(
        "--arch: which architecture to tune for (e.g. 90)");
  auto Arch = oneArch();
  if (!Arch)
    return Arch.takeError();
  auto Limit = budget();
  if (!Limit)
    return Limit.takeError();
  tune::KernelModeOptions O;
  O.File = InputFile;
  O.Kernel = KernelName;
  O.Arch = *Arch;
  O.Image = ImageName;
  if (BatchSize.getNumOccurrences())
    O.BatchSize = BatchSize;
  O.Jobs = Jobs;
  O.Strategy = StrategyName;
  O.Seed = Seed;
  O.Limit = *Limit;
  O.PredictionsPath = PredictionsPath;
  O.BuildCacheDir = BuildCacheDir;
  O.WorkDir = WorkDir;
  if (AllGpus)
    O.Gpus = "all";
  else if (!GpuIds.empty())
    O.Gpus = llvm::join(
        llvm::map_range(GpuIds, [](unsigned N) { return std::to_string(N); }),
        ",");
  O.Force = Force;
  O.Quiet = Quiet;
  O.Outputs = runOutputs();
  auto Opts = pipelineOptionsFor(InputFile);
  if (!Opts)
    return Opts.takeError();
  switch (M) {
  case Bundle:
    return tune::emitBundle(O, *Opts, EmitBundle);
  case Predict:
    return tune::writePredictions(O, *Opts, PredictPath);
  default:
    return tune::runOnGpu(O, *Opts);
  }
}

static llvm::Error runImportMode() {
  tune::ImportOptions O;
  O.Dir = ImportDir;
  if (!ArchName.empty()) {
    auto Arch = oneArch();
    if (!Arch)
      return Arch.takeError();
    O.Arch = *Arch;
  }
  O.Outputs = runOutputs();
  return tune::runImportMode(O);
}

static llvm::Error runReplayMode() {
  tune::ReplayOptions O;
  O.CachePath = ReplayPath;
  O.Strategy = StrategyName;
  O.Seed = Seed;
  O.PredictionsPath = PredictionsPath;
  auto Limit = budget();
  if (!Limit)
    return Limit.takeError();
  O.Limit = *Limit;
  if (!O.Limit.Evaluations && !O.Limit.Seconds)
    O.Limit.Evaluations = 1000;
  if (!ArchName.empty()) {
    auto Arch = oneArch();
    if (!Arch)
      return Arch.takeError();
    O.Arch = *Arch;
  } else if (!TuningFilePath.empty()) {
    return llvm::createStringError(
        "--tuning-file needs --arch: a cache records the device, not the "
        "architecture its entry is for");
  }
  if (Jobs.getNumOccurrences()) {
    if (Jobs == 0)
      return llvm::createStringError("--jobs must be at least 1");
    if (!(RoundSeconds >= 0) || !(CompileSeconds >= 0) ||
        !std::isfinite(RoundSeconds) || !std::isfinite(CompileSeconds))
      return llvm::createStringError(
          "--round-seconds and --compile-seconds must be at least 0");
    tune::RoundModel Model;
    Model.Cores = Jobs;
    Model.Batch = BatchSize.getNumOccurrences() ? unsigned(BatchSize) : 0;
    Model.FixedSeconds = RoundSeconds;
    Model.CompileSeconds = CompileSeconds;
    O.Rounds = Model;
  } else if (BatchSize.getNumOccurrences() ||
             RoundSeconds.getNumOccurrences() ||
             CompileSeconds.getNumOccurrences()) {
    return llvm::createStringError(
        "--batch-size, --round-seconds and --compile-seconds model a replay "
        "in rounds: give --jobs N, the cores compiling each round");
  }
  O.Outputs = runOutputs();
  return tune::runReplayMode(std::move(O), Quiet);
}

int metacu::runTuneCommand() {
  if (ListStrategies) {
    for (const tune::StrategyInfo &S : tune::strategies())
      llvm::outs() << llvm::formatv("{0,-15} {1}\n", S.Name, S.Summary);
    return 0;
  }
  if (!ImportDir.empty() && (!ReplayPath.empty() || !InputFile.empty()))
    return fail("--import reads a bundle's results, not a kernel file or a "
                "cache");
  if (!InputFile.empty() && !ReplayPath.empty())
    return fail("--replay answers from a cache file, not a kernel file");
  if (!InputFile.empty() && !EmitBundle.empty() && !PredictPath.empty())
    return fail("--emit-bundle and --predict are two runs: give one");
  if (ImportDir.empty() && ReplayPath.empty() && InputFile.empty()) {
    if (!PredictPath.empty())
      return fail("--predict predicts a kernel file's candidates: metacu "
                  "tune KERNEL.cu --arch N --predict OUT.json");
    return fail("no kernel file: metacu tune KERNEL.cu --arch N, --import "
                "DIR or --replay CACHE.json[.gz]");
  }
  Mode M = !ImportDir.empty()     ? Import
           : !ReplayPath.empty()  ? Replay
           : !EmitBundle.empty()  ? Bundle
           : !PredictPath.empty() ? Predict
                                  : GpuRun;
  // --emit-bundle and --predict select modes, so the table cannot hold them.
  if (!EmitBundle.empty() && M != Bundle)
    return fail("--emit-bundle writes a kernel file's candidates, not what " +
                llvm::Twine(modeName(M)) + " reads");
  if (!PredictPath.empty() && M != Predict)
    return fail("--predict predicts a kernel file's candidates, not what " +
                llvm::Twine(modeName(M)) +
                " reads: metacu tune KERNEL.cu "
                "--arch N --predict OUT.json");
  if (llvm::Error Err = checkOptionsRead(M))
    return reportFailure(std::move(Err));
  llvm::Error Err = M == Import   ? runImportMode()
                    : M == Replay ? runReplayMode()
                                  : runKernelMode(M);
  if (Err)
    return reportFailure(std::move(Err));
  return 0;
}
