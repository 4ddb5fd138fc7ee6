//===- KernelModes.cpp - The modes of a kernel file -----------------------===//
#include "KernelModes.h"
#include "KernelSource.h"
#include "Predict.h"

#include "tune/Progress.h"
#include "tune/runners/Gpu.h"
#include "tune/strategies/Strategy.h"

#include "support/Output.h"
#include "toolchain/Arch.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <thread>

using namespace metacu;
using namespace metacu::tune;

namespace {
/// What every mode of a kernel file starts from: the image's architectures,
/// the declared space, and the files the expansion read.
struct Prepared {
  std::string Image;
  ArchList ImageArchs;
  KernelSource Kernel;
  SearchSpace Space;
  std::vector<std::string> Read;
};
} // namespace

/// Expands O.File to read its space (and, with \p Whole, every candidate
/// of a space of at most that many configurations:
/// KernelSource::describe), and checks the outputs (\p Others among them)
/// against what it read.
static llvm::Expected<Prepared> prepare(const KernelModeOptions &O,
                                        const PipelineOptions &Opts,
                                        llvm::ArrayRef<std::string> Others,
                                        size_t Whole = 0) {
  std::string Image = O.Image.empty() ? O.Arch : O.Image;
  // The expansion's passes are the image's architecture: a compute_80 image
  // holds the code an sm_80 build would.
  llvm::StringRef ImageNumber = Image;
  if (!ImageNumber.consume_front("compute_") &&
      !ImageNumber.consume_front("sm_"))
    return llvm::createStringError("--image: sm_N or compute_N, not '" + Image +
                                   "'");
  auto ImageArchs = ArchList::parse(ImageNumber);
  if (!ImageArchs)
    return llvm::createStringError("--image: " +
                                   llvm::toString(ImageArchs.takeError()));
  // The tuning file the run writes: meta code reads it where it exists.
  std::vector<std::string> Watched;
  if (!O.Outputs.TuningFile.empty())
    Watched.push_back(O.Outputs.TuningFile);
  auto Kernel = KernelSource::describe(O.File, O.Kernel, *ImageArchs, Opts,
                                       Whole, Watched);
  if (!Kernel)
    return Kernel.takeError();
  auto Space = Kernel->Declared.searchSpace();
  if (!Space)
    return Space.takeError();
  std::vector<std::string> Read = Kernel->Dependencies;
  if (!O.PredictionsPath.empty())
    Read.push_back(O.PredictionsPath);
  if (llvm::Error Err = checkRunOutputs(O.Outputs, Read, Others))
    return std::move(Err);
  return Prepared{std::move(Image), std::move(*ImageArchs), std::move(*Kernel),
                  std::move(*Space), std::move(Read)};
}

static unsigned jobs(const KernelModeOptions &O) {
  return O.Jobs ? O.Jobs : std::max(1u, std::thread::hardware_concurrency());
}

/// The model's predictions of P's space, made from the candidates' code for
/// P.Image on O.Arch; \p AfterRound is told of each round's.
static llvm::Expected<Predictions>
predict(const KernelModeOptions &O, const PipelineOptions &Opts,
        const Prepared &P,
        std::function<llvm::Error(const Predictions &)> AfterRound) {
  auto Target = ArchList::parse(O.Arch);
  if (!Target)
    return Target.takeError();
  PredictOptions Predict;
  Predict.Target = Target->archs().front();
  Predict.ExpandFor = P.ImageArchs;
  if (llvm::StringRef(P.Image).starts_with("compute_"))
    Predict.PtxArch = P.Image;
  Predict.Nvcc = Opts.Toolkit.Root + "/bin/nvcc";
  Predict.BatchSize = O.BatchSize ? std::max(1u, *O.BatchSize) : 32;
  Predict.Jobs = jobs(O);
  bool Quiet = O.Quiet;
  auto Report = [Quiet](size_t Done, size_t Total) {
    if (!Quiet)
      llvm::errs() << llvm::formatv(
          "metacu tune: predicted {0} of {1} configurations\n", Done, Total);
  };
  Predict.Progress = Report;
  Predict.CacheDir = O.BuildCacheDir;
  Predict.AfterRound = std::move(AfterRound);
  return predictSpace(P.Kernel, P.Space, Opts, Predict);
}

/// What a bundle, or a round of the GPU run, is made with.
static BundleOptions bundleOptions(const KernelModeOptions &O,
                                   const PipelineOptions &Opts,
                                   const Prepared &P) {
  BundleOptions B;
  B.Arch = O.Arch;
  B.Image = P.Image;
  // A bundle's batches, and a live run's rounds. With a bundle per round
  // (a space too large to expand whole, GpuRunner), a round costs an
  // expansion, a harness and a few nvcc runs whatever it holds, so rounds
  // are large: on an H100 machine, 30 random configurations took 0.82 s
  // each in rounds of 16 and 0.41 s in one round. A local search's rounds
  // are what it proposes at once (its neighbours), fewer.
  B.BatchSize = O.BatchSize ? std::max(1u, *O.BatchSize) : 64;
  B.RuntimeInclude = Opts.RuntimeInclude;
  B.SourceDir = P.Kernel.SourceDir;
  B.Files = P.Kernel.Files;
  B.HarnessSource = P.Kernel.HarnessSource;
  B.Strategy = O.Strategy.empty() ? "brute_force" : O.Strategy;
  B.Force = O.Force;
  return B;
}

llvm::Error metacu::tune::writePredictions(const KernelModeOptions &O,
                                           const PipelineOptions &Opts,
                                           llvm::StringRef Path) {
  auto P = prepare(O, Opts, {Path.str()});
  if (!P)
    return P.takeError();
  auto Write = [&](const Predictions &So) {
    llvm::json::Object Header{{"kernel", P->Kernel.Declared.Kernel},
                              {"source", llvm::sys::path::filename(O.File)},
                              {"arch", O.Arch},
                              {"image", P->Image}};
    std::string Text;
    llvm::raw_string_ostream(Text)
        << llvm::formatv("{0:1}", So.toJSON(P->Space, std::move(Header)))
        << '\n';
    return writeOutput(Path, Text, P->Read);
  };
  auto Made = predict(O, Opts, *P, Write);
  if (!Made)
    return Made.takeError();
  return Write(*Made);
}

llvm::Error metacu::tune::emitBundle(const KernelModeOptions &O,
                                     const PipelineOptions &Opts,
                                     llvm::StringRef Dir) {
  auto P = prepare(O, Opts, {});
  if (!P)
    return P.takeError();
  BundleOptions B = bundleOptions(O, Opts, *P);
  if (const StrategyInfo *S = findStrategy(B.Strategy); S && S->Adaptive)
    return llvm::createStringError(
        "--emit-bundle: a bundle holds a fixed set of candidates "
        "(--strategy brute_force or random_sample); '" +
        B.Strategy +
        "' chooses as it measures: run it where metacu and the GPU are both, "
        "or --replay the imported results (--kt-cache)");
  auto Configs = proposedConfigs(P->Space, B.Strategy, O.Seed,
                                 O.Limit.Evaluations.value_or(0), B.BatchSize);
  if (!Configs)
    return Configs.takeError();
  auto Generate = [&](llvm::ArrayRef<Candidate> Batch) {
    return P->Kernel.generate(Batch, P->ImageArchs, Opts);
  };
  if (llvm::Error Err = tune::writeBundle(Dir, P->Kernel.Declared, P->Space,
                                          *Configs, B, Generate))
    return Err;
  llvm::errs() << llvm::formatv(
      "metacu tune: {0}: {1} candidates of {2} ({3} valid configurations); "
      "run `python3 {0}/run.py` on the GPU machine, then `metacu tune "
      "--import {0}`\n",
      Dir, Configs->size(), P->Kernel.Declared.Kernel, P->Space.size());
  return llvm::Error::success();
}

llvm::Error metacu::tune::runOnGpu(const KernelModeOptions &O,
                                   const PipelineOptions &Opts) {
  // nvidia-smi answers while the file expands.
  std::future<GpuQuery> Gpu = queryGpu(O.Gpus);
  GpuRunnerOptions G;
  G.WorkDir = O.WorkDir.empty()
                  ? (llvm::sys::path::filename(O.File) + ".tune").str()
                  : O.WorkDir;
  G.Gpus = O.Gpus;
  G.Jobs = O.Jobs;
  G.Nvcc = Opts.Toolkit.Root + "/bin/nvcc";
  G.Clang = harnessClang();
  // Before bundleOptions() below: the early run.py compiles the harness's
  // machinery from these headers while the file expands.
  G.Bundle.RuntimeInclude = Opts.RuntimeInclude;
  // run.py, and the harness the last run of this file on this architecture
  // left, start while the file expands.
  llvm::SmallString<256> Absolute(O.File);
  llvm::sys::fs::make_absolute(Absolute);
  std::string Key = (llvm::StringRef(Absolute) + "\n" + O.Arch).str();
  std::unique_ptr<EarlyRunPy> Early = startEarlyRunPy(
      G, llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true));
  // A space the runner expands whole is expanded by the describe's
  // interpreter run (one run, not two, before run.py starts).
  auto P = prepare(O, Opts, {}, GpuRunnerOptions().RunWideCandidates);
  if (!P)
    return P.takeError();
  const DeclaredSpace &Declared = P->Kernel.Declared;
  if (!Declared.Sizes.empty())
    return llvm::createStringError(
        "tune_space '" + Declared.Kernel + "' declares " +
        std::to_string(Declared.Sizes.size()) +
        " problem sizes: tune them with --emit-bundle DIR and --import DIR, "
        "which time every candidate at each size (a search here optimises "
        "one objective)");
  std::optional<Predictions> Predicted;
  const StrategyInfo *Strategy = findStrategy(
      O.Strategy.empty() ? defaultStrategy() : llvm::StringRef(O.Strategy));
  if (!O.PredictionsPath.empty()) {
    auto Read = Predictions::read(O.PredictionsPath, P->Space,
                                  {Declared.Kernel, O.Arch, P->Image});
    if (!Read)
      return Read.takeError();
    Predicted = std::move(*Read);
  } else if (Strategy && Strategy->NeedsPredictions) {
    auto Made = predict(O, Opts, *P, nullptr);
    if (!Made)
      return Made.takeError();
    Predicted = std::move(*Made);
  }

  G.Bundle = bundleOptions(O, Opts, *P);
  auto Generate = [&](llvm::ArrayRef<Candidate> Batch) {
    return P->Kernel.generate(Batch, P->ImageArchs, Opts);
  };
  auto Runner = GpuRunner::create(P->Kernel.Declared, P->Space, G, Generate,
                                  Gpu.get(), std::move(Early));
  if (!Runner)
    return Runner.takeError();
  auto Journal = openJournal(O.Outputs);
  if (!Journal)
    return Journal.takeError();
  RunInfo Info;
  Info.Kernel = P->Kernel.Declared.Kernel;
  Info.Where = (*Runner)->target();
  Info.Driver = (*Runner)->driver();
  Info.Objective = P->Kernel.Declared.Objective;
  Info.Source = O.File;
  Info.Note = imageNote(P->Image, O.Arch, Info.Where.Device);
  TuneOptions Tune;
  Tune.Strategy = O.Strategy;
  Tune.Seed = O.Seed;
  Tune.Evaluation.Limit = O.Limit;
  Tune.Evaluation.Objective = Info.Objective;
  Tune.Evaluation.Journal = Journal->get();
  Tune.Evaluation.Predicted = Predicted ? &*Predicted : nullptr;
  std::optional<Progress> Shown;
  if (!O.Quiet)
    Tune.Evaluation.Listener =
        &Shown.emplace(llvm::errs(), Progress::styleForStderr());
  Info.Limit = Tune.Evaluation.Limit;
  auto Run = runTuning(P->Space, **Runner, Tune);
  if (!Run)
    return Run.takeError();
  Info.Date = currentDate();
  printRunSummary(llvm::outs(), O.Outputs, Info, P->Space, *Run,
                  runHeading(Info));
  return writeRunOutputs(O.Outputs, Info, P->Space, *Run, std::move(P->Read),
                         llvm::errs());
}
