//===- Predict.cpp --------------------------------------------------------===//
#include "Predict.h"

#include "report/Report.h"
#include "support/Output.h"
#include "tune/Random.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include <thread>

using namespace metacu;
using namespace metacu::tune;

namespace {

/// One batch on its way: its candidates, its folder and what became of it.
struct Batch {
  std::vector<uint32_t> Configs;
  std::string Dir;
  std::optional<std::string> Generated;
  /// None when nvcc failed.
  std::optional<std::vector<report::ArchBuild>> Builds;
  /// Why the expansion or nvcc failed.
  std::string Failure;
};

/// The first error of nvcc's log \p Log as "FILE:LINE: error: ...", nvcc's
/// "FILE(LINE): error: ..." written as every other error of metacu is (the
/// generated file's #line directives make FILE the user's); the whole log
/// when no line reads so.
static std::string firstCompileError(llvm::StringRef Log) {
  llvm::SmallVector<llvm::StringRef> Lines;
  Log.split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    size_t Error = Line.find("): error");
    if (Error == llvm::StringRef::npos)
      continue;
    llvm::StringRef Place = Line.take_front(Error);
    size_t Open = Place.rfind('(');
    unsigned Number;
    if (Open != llvm::StringRef::npos &&
        !Place.drop_front(Open + 1).getAsInteger(10, Number))
      return (Place.take_front(Open) + ":" + llvm::Twine(Number) +
              Line.drop_front(Error + 1))
          .str();
  }
  return Log.trim().str();
}

class Predictor {
public:
  Predictor(const KernelSource &K, const SearchSpace &Space,
            const PipelineOptions &Opts, const PredictOptions &P,
            llvm::StringRef WorkDir)
      : K(K), Space(Space), Opts(Opts), P(P), WorkDir(WorkDir),
        Out(Space.size()) {
    llvm::SmallString<256> InputDir(llvm::sys::path::parent_path(K.Path));
    llvm::sys::fs::make_absolute(InputDir);
    Nvcc.Nvcc = P.Nvcc;
    // As the tuning build compiles: the expansion defined METACU_TUNE, and a
    // file's ordinary main may name kernels its tuning builds leave out.
    Nvcc.Args = report::nvccArgs(tuningBuild(Opts).Flags, Opts.RuntimeInclude,
                                 InputDir);
    Nvcc.PtxArch = P.PtxArch;
    Nvcc.CacheDir = P.CacheDir;
  }

  llvm::Expected<Predictions> run() {
    std::vector<uint32_t> All(Space.size());
    for (uint32_t I = 0; I < All.size(); ++I)
      All[I] = I;
    Random(P.Seed).shuffle(All);
    size_t Size = std::max(1u, P.BatchSize), Jobs = std::max(1u, P.Jobs);
    for (size_t Start = 0; Start < All.size(); Start += Size * Jobs) {
      // Expansion runs in this process, one batch at a time; nvcc runs for
      // every batch of the round at once.
      std::vector<Batch> Round;
      for (size_t B = Start; B < std::min(All.size(), Start + Size * Jobs);
           B += Size)
        Round.push_back(
            {{All.begin() + B, All.begin() + std::min(All.size(), B + Size)}});
      for (Batch &B : Round)
        if (llvm::Error Err = generate(B))
          return std::move(Err);
      std::vector<std::thread> Threads;
      for (Batch &B : Round)
        if (B.Generated)
          Threads.emplace_back([this, Each = &B] { compile(*Each); });
      for (std::thread &T : Threads)
        T.join();
      for (Batch &B : Round)
        if (llvm::Error Err = finish(B))
          return std::move(Err);
      if (P.Progress)
        P.Progress(std::min(All.size(), Start + Size * Jobs), All.size());
      // Nothing is written while every candidate so far failed: a file of
      // failures would read as predictions.
      if (P.AfterRound && Builds)
        if (llvm::Error Err = P.AfterRound(Out))
          return std::move(Err);
    }
    if (!Builds && !All.empty())
      return llvm::createStringError(
          llvm::formatv("none of the {0} configurations of tuning space '{1}' "
                        "builds; the first to fail ({2}):\n{3}",
                        All.size(), K.Declared.Kernel,
                        Space.describe(FirstFailure->first),
                        FirstFailure->second)
              .str());
    return std::move(Out);
  }

private:
  llvm::Error generate(Batch &B) {
    B.Dir = (WorkDir + "/batch_" + std::to_string(B.Configs.front())).str();
    if (std::error_code EC = llvm::sys::fs::create_directories(B.Dir))
      return llvm::createStringError("cannot create " + B.Dir + ": " +
                                     EC.message());
    auto Text = K.generate(candidatesFor(K.Declared, Space, B.Configs),
                           P.ExpandFor, Opts);
    if (!Text) {
      // Told by splitting the batch, below.
      B.Failure = llvm::toString(Text.takeError());
      return llvm::Error::success();
    }
    std::string Path = B.Dir + "/candidates.gen.cu";
    if (llvm::Error Err = writeOutput(Path, *Text))
      return Err;
    B.Generated = Path;
    return llvm::Error::success();
  }

  void compile(Batch &B) {
    report::NvccOptions N = Nvcc;
    N.WorkDir = B.Dir;
    auto Builds = report::buildForArchs(*B.Generated, {P.Target}, N);
    if (Builds)
      B.Builds = std::move(*Builds);
    else // told by splitting the batch
      B.Failure = firstCompileError(llvm::toString(Builds.takeError()));
  }

  /// The report's rows into predictions; a batch that did not expand or
  /// compile is split in two until the candidates that fail are alone.
  llvm::Error finish(Batch &B) {
    if (!B.Generated || !B.Builds) {
      llvm::sys::fs::remove_directories(B.Dir);
      if (B.Configs.size() == 1) {
        Predicted Fails;
        Fails.Builds = false;
        Fails.Failure = B.Failure;
        Out.set(B.Configs.front(), Fails);
        if (!FirstFailure)
          FirstFailure.emplace(B.Configs.front(), B.Failure);
        return llvm::Error::success();
      }
      size_t Half = B.Configs.size() / 2;
      for (auto Part : {llvm::ArrayRef(B.Configs).take_front(Half),
                        llvm::ArrayRef(B.Configs).drop_front(Half)}) {
        Batch Sub{{Part.begin(), Part.end()}};
        if (llvm::Error Err = generate(Sub))
          return Err;
        if (Sub.Generated)
          compile(Sub);
        if (llvm::Error Err = finish(Sub))
          return Err;
      }
      return llvm::Error::success();
    }
    llvm::DenseMap<llvm::StringRef, uint32_t> ConfigOf;
    std::vector<Candidate> Named = candidatesFor(K.Declared, Space, B.Configs);
    for (const Candidate &C : Named)
      ConfigOf[C.Name] = C.Config;
    auto Rows = report::buildReports(
        *B.Builds,
        [&](llvm::StringRef Name,
            const Arch &) -> std::optional<report::LaunchConfig> {
          auto It = ConfigOf.find(Name);
          if (It == ConfigOf.end())
            return std::nullopt;
          const std::array<uint64_t, 6> &L = K.Declared.Launches[It->second];
          report::LaunchConfig C;
          C.Block = {unsigned(L[0]), unsigned(L[1]), unsigned(L[2])};
          C.Grid = report::Dim3{unsigned(L[3]), unsigned(L[4]), unsigned(L[5])};
          C.ProblemSize = K.Declared.ProblemSize;
          return C;
        });
    llvm::sys::fs::remove_directories(B.Dir);
    if (!Rows)
      return Rows.takeError();
    for (const report::KernelReport &R : *Rows) {
      auto It = ConfigOf.find(R.Name);
      if (It == ConfigOf.end())
        continue;
      Predicted Pred;
      Pred.SpillStoreBytes = R.Resources.SpillStoreBytes;
      Pred.SpillLoadBytes = R.Resources.SpillLoadBytes;
      Pred.BlocksPerSM = R.Occ ? R.Occ->BlocksPerSM : 0;
      if (R.Model)
        Pred.TimeUs = R.Model->TimeUs;
      Predicted::Source From;
      From.Mangled = R.Counts.Mangled;
      From.Registers = R.Resources.Registers;
      if (R.Launch) {
        From.Block = {R.Launch->Block.X, R.Launch->Block.Y, R.Launch->Block.Z};
        From.DynamicSharedBytes = R.Launch->DynamicSharedBytes;
      }
      Pred.From = std::move(From);
      Out.set(It->second, Pred);
      Builds = true;
    }
    return llvm::Error::success();
  }

  const KernelSource &K;
  const SearchSpace &Space;
  const PipelineOptions &Opts;
  const PredictOptions &P;
  llvm::StringRef WorkDir;
  report::NvccOptions Nvcc;
  Predictions Out;
  /// Whether any candidate built so far.
  bool Builds = false;
  /// The first candidate found not to build, and why.
  std::optional<std::pair<uint32_t, std::string>> FirstFailure;
};

} // namespace

llvm::Expected<Predictions>
metacu::tune::predictSpace(const KernelSource &K, const SearchSpace &Space,
                           const PipelineOptions &Opts,
                           const PredictOptions &P) {
  if (K.Declared.Launches.size() != Space.size())
    return llvm::createStringError(
        K.Path + ": tuning space '" + K.Declared.Kernel +
        "' does not say how a configuration is launched, which the model "
        "needs: declare .launch(...) (docs/tune.md)");
  // Without nvcc every batch would fail and be split down to single
  // candidates, each "not building".
  if (!llvm::sys::fs::can_execute(P.Nvcc))
    return llvm::createStringError("cannot run " + P.Nvcc +
                                   " to predict the candidates");
  llvm::SmallString<256> WorkDir;
  if (std::error_code EC =
          llvm::sys::fs::createUniqueDirectory("metacu-predict", WorkDir))
    return llvm::createStringError("cannot create a temporary directory: " +
                                   EC.message());
  llvm::scope_exit Cleanup([&] { llvm::sys::fs::remove_directories(WorkDir); });
  return Predictor(K, Space, Opts, P, WorkDir).run();
}
