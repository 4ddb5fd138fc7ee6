//===- Bundle.cpp - Candidates, harness and runner script in one folder ---===//
#include "Bundle.h"

#include "JSONError.h"
#include "Shards.h"
#include "support/Output.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <algorithm>

using namespace metacu::tune;
namespace json = llvm::json;

// run.py as a string literal, generated from run.py by CMake.
#include "RunScript.inc"

llvm::StringRef metacu::tune::runScript() { return RunPy; }

static llvm::Error bad(llvm::StringRef Origin, const llvm::Twine &Msg) {
  return llvm::createStringError(Origin + ": " + Msg);
}

namespace metacu::tune {
bool fromJSON(const json::Value &V, Parameter &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("name", Out.Name) && O.map("values", Out.Values);
}
} // namespace metacu::tune

/// A tuning space as its generator describes it, at \p P of \p In's file.
static bool readDeclared(const json::Value &V, DeclaredSpace &D, json::Path P,
                         JSONInput &In) {
  json::ObjectMapper O(V, P);
  std::string Metric, Direction;
  std::optional<std::vector<std::vector<uint64_t>>> Launches;
  if (!O || !O.map("kernel", D.Kernel) || !O.map("where", D.Where) ||
      !O.map("params", D.Params) || !O.map("valid", D.Valid) ||
      !O.map("problem_size", D.ProblemSize) || !O.map("metric", Metric) ||
      !O.map("work", D.Work) || !O.map("direction", Direction) ||
      !O.map("tolerance", D.Tolerance) || !O.map("launches", Launches) ||
      // Left out by generators older than the limit.
      !O.mapOptional("max_threads_per_block", D.MaxThreadsPerBlock) ||
      !O.mapOptional("over_max_threads", D.OverMaxThreads) ||
      !O.mapOptional("sizes", D.Sizes) ||
      !O.mapOptional("size_work", D.SizeWork))
    return false;
  for (size_t I = 0; I < D.Sizes.size(); ++I) {
    if (D.Sizes[I].empty() || D.Sizes[I].size() != D.Sizes[0].size() ||
        llvm::any_of(D.Sizes[I], [](int64_t N) { return N < 1; }))
      return In.fail(P.field("sizes").index(I),
                     "a size is as many dimensions as the first, each at "
                     "least 1");
  }
  if (D.SizeWork.size() != D.Sizes.size())
    return In.fail(P.field("size_work"), "one work per size");
  if (D.Valid.empty())
    return In.fail(P.field("valid"), "no valid configuration");
  for (size_t I = 1; I < D.Valid.size(); ++I)
    if (D.Valid[I] <= D.Valid[I - 1])
      return In.fail(P.field("valid").index(I),
                     "valid configurations must be ascending indices");
  if (Direction != "min" && Direction != "max")
    return In.fail(P.field("direction"),
                   "\"min\" or \"max\", not \"" + Direction + "\"");
  D.Objective = Metric::fromObjective(Metric);
  D.Objective.Maximize = Direction == "max";
  if (Metric != "time" && !(D.Work > 0))
    return In.fail(P.field("work"), "metric '" + Metric +
                                        "' needs the work of one run "
                                        "(tune_space::metric)");
  for (size_t I = 0; I < D.SizeWork.size(); ++I)
    if (Metric != "time" && !(D.SizeWork[I] > 0))
      return In.fail(P.field("size_work").index(I),
                     "metric '" + Metric + "' needs the work of one run");
  if (Launches) {
    if (Launches->size() != D.Valid.size())
      return In.fail(P.field("launches"), "one launch per valid configuration");
    for (size_t I = 0; I < Launches->size(); ++I) {
      const std::vector<uint64_t> &Dims = (*Launches)[I];
      if (Dims.size() != 6 || llvm::is_contained(Dims, 0))
        return In.fail(P.field("launches").index(I),
                       "a launch is block x, y, z and grid x, y, z, each "
                       "positive");
      std::array<uint64_t, 6> A;
      std::copy(Dims.begin(), Dims.end(), A.begin());
      D.Launches.push_back(A);
    }
  }
  return true;
}

llvm::Expected<DeclaredSpace> DeclaredSpace::parse(llvm::StringRef Text,
                                                   llvm::StringRef Origin) {
  auto V = parseJSON(Text, Origin);
  if (!V)
    return V.takeError();
  JSONInput In(Origin);
  DeclaredSpace D;
  if (!readDeclared(*V, D, In.Root, In))
    return In.error();
  return D;
}

json::Value DeclaredSpace::toJSON() const {
  json::Array P, V, S;
  for (const Parameter &Param : Params) {
    json::Array Values;
    for (const Value &X : Param.Values)
      Values.push_back(X.toJSON());
    P.push_back(
        json::Object{{"name", Param.Name}, {"values", std::move(Values)}});
  }
  for (uint64_t I : Valid)
    V.push_back(I);
  for (int64_t N : ProblemSize)
    S.push_back(N);
  json::Object O{{"kernel", Kernel},
                 {"where", Where},
                 {"params", std::move(P)},
                 {"valid", std::move(V)},
                 {"problem_size", std::move(S)},
                 {"metric", Objective.Name},
                 {"work", Work},
                 {"direction", Objective.direction()},
                 {"tolerance", Tolerance},
                 {"max_threads_per_block", MaxThreadsPerBlock},
                 {"over_max_threads", int64_t(OverMaxThreads)}};
  if (!Sizes.empty()) {
    json::Array Ss, W;
    for (const std::vector<int64_t> &Size : Sizes)
      Ss.push_back(json::Array(Size));
    for (double X : SizeWork)
      W.push_back(X);
    O["sizes"] = std::move(Ss);
    O["size_work"] = std::move(W);
  }
  if (!Launches.empty()) {
    json::Array L;
    for (const auto &A : Launches) {
      json::Array Dims;
      for (uint64_t N : A)
        Dims.push_back(N);
      L.push_back(std::move(Dims));
    }
    O["launches"] = std::move(L);
  }
  return O;
}

llvm::Expected<SearchSpace> DeclaredSpace::searchSpace() const {
  std::vector<uint64_t> Radix;
  for (const Parameter &P : Params)
    Radix.push_back(P.Values.size());
  return SearchSpace::restricted(Params, [&](llvm::ArrayRef<uint32_t> C) {
    uint64_t Index = 0;
    for (size_t I = 0; I < C.size(); ++I)
      Index = Index * Radix[I] + C[I];
    return std::binary_search(Valid.begin(), Valid.end(), Index);
  });
}

double DeclaredSpace::objective(double Ms, size_t Size) const {
  double W = Size < SizeWork.size() ? SizeWork[Size] : Work;
  return Objective.Name == "time" ? Ms : W / (Ms / 1000);
}

std::vector<Candidate>
metacu::tune::candidatesFor(const DeclaredSpace &D, const SearchSpace &Space,
                            llvm::ArrayRef<uint32_t> Configs) {
  std::vector<Candidate> Out;
  for (uint32_t C : Configs)
    Out.push_back(
        {C, D.Kernel + "_tune_" + std::to_string(C), Space.toJSON(C)});
  return Out;
}

static json::Value candidateJSON(const Candidate &C) {
  return json::Object{{"config", C.Config},
                      {"name", C.Name},
                      {"params", json::Object(C.Params)}};
}

/// nvcc's -gencode value for an image: "sm_90" is SASS for that
/// architecture; "compute_80" is that PTX assembled by ptxas for the GPU
/// that runs it (run.py fills in "{gpu}" from the device), ahead of time,
/// as the driver's JIT would at load.
static llvm::Expected<std::string> gencode(llvm::StringRef Image) {
  llvm::StringRef Num = Image;
  if (Num.consume_front("compute_"))
    return ("arch=compute_" + Num + ",code=sm_{gpu}").str();
  if (Num.consume_front("sm_"))
    return ("arch=compute_" + Num + ",code=sm_" + Num).str();
  return llvm::createStringError("not an image: '" + Image +
                                 "' (sm_N or compute_N)");
}

static llvm::Error copyTree(llvm::StringRef From, llvm::StringRef To,
                            std::vector<metacu::OutputFile> &Files) {
  std::error_code EC;
  for (llvm::sys::fs::recursive_directory_iterator It(From, EC), End;
       It != End && !EC; It.increment(EC)) {
    if (It->type() != llvm::sys::fs::file_type::regular_file)
      continue;
    auto Buf = llvm::MemoryBuffer::getFile(It->path());
    if (!Buf)
      return llvm::createStringError("cannot read " + It->path() + ": " +
                                     Buf.getError().message());
    llvm::StringRef Rel = llvm::StringRef(It->path()).drop_front(From.size());
    Files.push_back({(To + Rel).str(), (*Buf)->getBuffer().str()});
  }
  if (EC)
    return llvm::createStringError("cannot read " + From + ": " + EC.message());
  return llvm::Error::success();
}

/// Whether \p Dir may take a new bundle: it is missing or empty, or holds an
/// earlier bundle not yet run (files metacu wrote, all to be replaced).
static llvm::Error checkBundleFolder(llvm::StringRef Dir) {
  if (!llvm::sys::fs::exists(Dir))
    return llvm::Error::success();
  if (!llvm::sys::fs::is_directory(Dir))
    return llvm::createStringError("--emit-bundle " + Dir +
                                   ": exists and is not a folder");
  std::error_code EC;
  llvm::sys::fs::directory_iterator It(Dir, EC);
  if (!EC && It == llvm::sys::fs::directory_iterator())
    return llvm::Error::success();
  std::string Results = (Dir + "/results.jsonl").str();
  if (llvm::sys::fs::exists(Results))
    return llvm::createStringError(
        "--emit-bundle " + Dir +
        ": the folder holds results.jsonl, the measurements of an earlier "
        "bundle; import them (--import " +
        Dir +
        ") or choose another folder (--force replaces the bundle and "
        "deletes them)");
  std::string ManifestPath = (Dir + "/manifest.json").str();
  auto Manifest = readInputFile(ManifestPath);
  auto V = Manifest ? parseJSON(*Manifest, ManifestPath)
                    : llvm::Expected<json::Value>(Manifest.takeError());
  const json::Object *O = V ? V->getAsObject() : nullptr;
  if (!V)
    llvm::consumeError(V.takeError());
  if (!O || !O->get("declared"))
    return llvm::createStringError(
        "--emit-bundle " + Dir +
        ": the folder is not empty and holds no metacu bundle; choose a new "
        "folder (--force writes into it, replacing files of the same names)");
  return llvm::Error::success();
}

llvm::Error metacu::tune::writeBundle(llvm::StringRef Dir,
                                      const DeclaredSpace &D,
                                      const SearchSpace &Space,
                                      llvm::ArrayRef<uint32_t> Configs,
                                      const BundleOptions &Options,
                                      GenerateFn Generate) {
  auto Gencode = gencode(Options.Image);
  if (!Gencode)
    return Gencode.takeError();
  if (!Options.Force)
    if (llvm::Error E = checkBundleFolder(Dir))
      return E;
  std::vector<metacu::OutputFile> Files;
  std::string Src = (Dir + "/src/").str();
  std::vector<Candidate> All = candidatesFor(D, Space, Configs);
  json::Array Batches, Failed;
  size_t BatchSize = std::max(1u, Options.BatchSize);
  // Each candidate's kernels guarded, so that run.py can compile the batch
  // in shards over the cores (Shards.h).
  auto AddBatch = [&](llvm::ArrayRef<Candidate> Batch,
                      const std::string &Text) {
    std::string Name =
        llvm::formatv("{0}/batch_{1}.cu", Options.SourceDir, Batches.size());
    std::vector<std::string> Names;
    for (const Candidate &C : Batch)
      Names.push_back(C.Name);
    GuardedBatch Guarded = guardCandidates(Text, Names);
    json::Array Cands;
    for (size_t I = 0; I < Batch.size(); ++I) {
      json::Value V = candidateJSON(Batch[I]);
      V.getAsObject()->try_emplace("shard_macro", shardMacro(Batch[I].Name));
      V.getAsObject()->try_emplace("weight", int64_t(Guarded.Weights[I]));
      Cands.push_back(std::move(V));
    }
    Batches.push_back(
        json::Object{{"source", Name}, {"candidates", std::move(Cands)}});
    Files.push_back({Src + Name, std::move(Guarded.Text)});
  };
  for (size_t I = 0; I < All.size(); I += BatchSize) {
    llvm::ArrayRef<Candidate> Batch =
        llvm::ArrayRef(All).slice(I, std::min(BatchSize, All.size() - I));
    auto Text = Generate(Batch);
    if (Text) {
      AddBatch(Batch, *Text);
      continue;
    }
    std::string Why = llvm::toString(Text.takeError());
    if (Batch.size() == 1) {
      Failed.push_back(json::Object{{"config", Batch[0].Config},
                                    {"reason", "generation failed: " + Why}});
      continue;
    }
    // One candidate's meta code failed: find which, keep the others.
    for (const Candidate &C : Batch) {
      auto One = Generate(C);
      if (One)
        AddBatch(C, *One);
      else
        Failed.push_back(
            json::Object{{"config", C.Config},
                         {"reason", "generation failed: " +
                                        llvm::toString(One.takeError())}});
    }
  }
  for (const auto &[Rel, From] : Options.Files) {
    auto Buf = llvm::MemoryBuffer::getFile(From);
    if (!Buf)
      return llvm::createStringError("cannot read " + From + ": " +
                                     Buf.getError().message());
    Files.push_back({Src + Rel, (*Buf)->getBuffer().str()});
  }
  if (llvm::Error E =
          copyTree(Options.RuntimeInclude, (Dir + "/include").str(), Files))
    return E;
  json::Array Size, Sizes, Flags;
  for (int64_t N : D.ProblemSize)
    Size.push_back(N);
  // run.py makes the problem at each and times every candidate at each.
  for (const std::vector<int64_t> &S : D.Sizes)
    Sizes.push_back(json::Array(S));
  for (const std::string &F : Options.NvccFlags)
    Flags.push_back(F);
  json::Object Manifest{{"format", 2},
                        {"declared", D.toJSON()},
                        {"arch", Options.Arch},
                        {"image", Options.Image},
                        {"gencode", *Gencode},
                        {"strategy", Options.Strategy},
                        {"batch_size", int64_t(BatchSize)},
                        {"warmup", Options.Warmup},
                        {"repeat", Options.Repeat},
                        {"size", std::move(Size)},
                        {"sizes", std::move(Sizes)},
                        {"tolerance", D.Tolerance},
                        {"nvcc_flags", std::move(Flags)},
                        {"batches", std::move(Batches)},
                        {"failed", std::move(Failed)}};
  Files.push_back({(Dir + "/manifest.json").str(),
                   llvm::formatv("{0:2}\n", json::Value(std::move(Manifest)))});
  Files.push_back({(Dir + "/run.py").str(), runScript().str()});
  for (const metacu::OutputFile &F : Files)
    if (std::error_code EC = llvm::sys::fs::create_directories(
            llvm::sys::path::parent_path(F.Path)))
      return llvm::createStringError("cannot create the folder of " + F.Path +
                                     ": " + EC.message());
  // Even with Force, not over the kernel's own headers (a bundle emitted
  // into its source tree).
  std::vector<std::string> Read;
  for (const auto &[Rel, From] : Options.Files)
    Read.push_back(From);
  if (llvm::Error E = metacu::writeOutputs(Files, Read))
    return E;
  // A new bundle's results start empty; an old results.jsonl (there only
  // with Force) would answer for other candidates.
  llvm::sys::fs::remove(Dir + "/results.jsonl");
  return llvm::Error::success();
}

namespace {
/// A bundle's manifest, as far as --import reads it.
struct Manifest {
  std::string Arch, Image, Strategy;
  /// The configurations of the candidates in batches, and of those whose
  /// generation failed.
  std::vector<uint64_t> Candidates;
};

/// A configuration's index, in the manifest and in results.
struct ConfigIndex {
  uint64_t Index = 0;
};
bool fromJSON(const json::Value &V, ConfigIndex &Out, json::Path P) {
  auto N = V.getAsUINT64();
  if (!N) {
    P.report("expected the index of a configuration");
    return false;
  }
  Out.Index = *N;
  return true;
}

struct ManifestCandidate {
  ConfigIndex Config;
};
bool fromJSON(const json::Value &V, ManifestCandidate &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("config", Out.Config);
}

struct ManifestBatch {
  std::vector<ManifestCandidate> Candidates;
};
bool fromJSON(const json::Value &V, ManifestBatch &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("candidates", Out.Candidates);
}

/// One size's result within a line (the harness's "sizes").
struct SizeLine {
  std::string Status;
  std::optional<std::string> Reason;
  std::optional<std::vector<double>> Times;
  std::optional<double> BenchmarkMs, VerificationMs;
};
bool fromJSON(const json::Value &V, SizeLine &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("status", Out.Status) && O.map("reason", Out.Reason) &&
         O.map("times", Out.Times) && O.map("benchmark_ms", Out.BenchmarkMs) &&
         O.map("verification_ms", Out.VerificationMs);
}

/// One line of results.jsonl as run.py writes it.
struct ResultLine {
  ConfigIndex Config;
  std::string Status;
  std::optional<std::string> Reason, Device, Driver, Timestamp;
  std::optional<std::vector<double>> Times;
  std::optional<double> CompileMs, BenchmarkMs, VerificationMs;
  std::optional<std::vector<SizeLine>> Sizes;
};
bool fromJSON(const json::Value &V, ResultLine &Out, json::Path P) {
  json::ObjectMapper O(V, P);
  return O && O.map("config", Out.Config) && O.map("status", Out.Status) &&
         O.map("reason", Out.Reason) && O.map("device", Out.Device) &&
         O.map("driver", Out.Driver) && O.map("timestamp", Out.Timestamp) &&
         O.map("times", Out.Times) && O.map("compile_ms", Out.CompileMs) &&
         O.map("benchmark_ms", Out.BenchmarkMs) &&
         O.map("verification_ms", Out.VerificationMs) &&
         O.map("sizes", Out.Sizes);
}
} // namespace

/// Reads \p Path into \p R.Declared and \p M.
static llvm::Error readManifest(const std::string &Path, BundleResults &R,
                                Manifest &M) {
  auto Text = readInputFile(Path);
  if (!Text)
    return Text.takeError();
  auto V = parseJSON(*Text, Path);
  if (!V)
    return V.takeError();
  const json::Object *Top = V->getAsObject();
  if (!Top || !Top->get("declared"))
    return bad(Path, "not a metacu tune bundle manifest");
  JSONInput In(Path);
  json::Path P(In.Root);
  json::ObjectMapper O(*V, P);
  std::vector<ManifestBatch> Batches;
  std::vector<ManifestCandidate> Failed;
  if (!readDeclared(*Top->get("declared"), R.Declared, P.field("declared"),
                    In) ||
      !O.map("arch", M.Arch) || !O.map("image", M.Image) ||
      !O.map("strategy", M.Strategy) || !O.map("batches", Batches) ||
      !O.map("failed", Failed))
    return In.error();
  auto Space = R.Declared.searchSpace();
  if (!Space)
    return Space.takeError();
  for (size_t B = 0; B < Batches.size(); ++B)
    for (size_t C = 0; C < Batches[B].Candidates.size(); ++C) {
      uint64_t Config = Batches[B].Candidates[C].Config.Index;
      if (Config >= Space->size()) {
        In.fail(P.field("batches")
                    .index(B)
                    .field("candidates")
                    .index(C)
                    .field("config"),
                "not a configuration of the declared space");
        return In.error();
      }
      M.Candidates.push_back(Config);
    }
  for (size_t F = 0; F < Failed.size(); ++F) {
    if (Failed[F].Config.Index >= Space->size()) {
      In.fail(P.field("failed").index(F).field("config"),
              "not a configuration of the declared space");
      return In.error();
    }
    M.Candidates.push_back(Failed[F].Config.Index);
  }
  return llvm::Error::success();
}

/// A result line as a measurement at size \p Size (at \p P, the line or
/// one of its "sizes"): its status and times checked, a median time of 0 (a
/// rate over it infinite) a failed measurement.
static llvm::Expected<Measurement> measurementOf(const ResultLine &L,
                                                 const DeclaredSpace &D,
                                                 JSONInput &In, json::Path P,
                                                 size_t Size) {
  Measurement M;
  auto V = validityFromT4Name(L.Status);
  if (!V) {
    In.fail(P.field("status"), "\"" + L.Status +
                                   "\" is no status (correct, compile, "
                                   "runtime, correctness or timeout)");
    return In.error();
  }
  M.Status = *V;
  M.Reason = L.Reason.value_or("");
  M.Times = L.Times.value_or(std::vector<double>());
  for (size_t I = 0; I < M.Times.size(); ++I)
    if (M.Times[I] < 0) {
      In.fail(P.field("times").index(I), "a negative time");
      return In.error();
    }
  if (M.valid()) {
    if (M.Times.empty()) {
      In.fail(P.field("times"), "a correct result needs its times");
      return In.error();
    }
    std::vector<double> Sorted = M.Times;
    std::sort(Sorted.begin(), Sorted.end());
    size_t N = Sorted.size();
    double Median =
        N % 2 ? Sorted[N / 2] : (Sorted[N / 2 - 1] + Sorted[N / 2]) / 2;
    M.Objective = D.objective(Median, Size);
    // A time of 0 (a rate over it infinite) is a failed measurement of
    // this configuration, not a result to rank or record.
    std::string Why = D.Objective.whyNotMeasured(M.Objective);
    if (Median <= 0 && Why.empty())
      Why = D.Objective.Name + " over a median time of " +
            std::to_string(Median) + " ms is no measurement";
    if (!Why.empty()) {
      M.Status = Validity::Runtime;
      M.Reason = Why;
    }
  }
  M.CompileMs = L.CompileMs.value_or(0);
  M.BenchmarkMs = L.BenchmarkMs.value_or(0);
  M.VerificationMs = L.VerificationMs.value_or(0);
  M.Timestamp = L.Timestamp.value_or("");
  return M;
}

llvm::Expected<BundleResults> metacu::tune::readBundle(llvm::StringRef Dir) {
  BundleResults R;
  Manifest Man;
  std::string ManifestPath = (Dir + "/manifest.json").str();
  if (llvm::Error E = readManifest(ManifestPath, R, Man))
    return std::move(E);
  R.Options.Arch = Man.Arch;
  R.Options.Image = Man.Image;
  R.Options.Strategy = Man.Strategy;
  R.Where.Arch = R.Options.Arch;
  R.Candidates = Man.Candidates.size();

  std::string ResultsPath = (Dir + "/results.jsonl").str();
  auto Results = readInputFile(ResultsPath);
  if (!Results)
    return llvm::createStringError(llvm::toString(Results.takeError()) +
                                   " (run the bundle's run.py first)");
  auto Space = R.Declared.searchSpace();
  if (!Space)
    return Space.takeError();
  std::vector<bool> InBundle(Space->size());
  for (uint64_t C : Man.Candidates)
    InBundle[C] = true;
  // The line of each configuration's result, 0 for none yet.
  std::vector<size_t> LineOf(Space->size());
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(*Results).split(Lines, '\n', -1, false);
  for (size_t L = 0; L < Lines.size(); ++L) {
    std::string Origin = llvm::formatv("{0}:{1}", ResultsPath, L + 1);
    // Only the last line can be torn, by a run killed while writing it:
    // text after the last newline that is not JSON.
    if (L + 1 == Lines.size() && !llvm::StringRef(*Results).ends_with("\n") &&
        isTornRecord(Lines[L]))
      break;
    auto Line = parseJSON(Lines[L], ResultsPath, L + 1);
    if (!Line)
      return Line.takeError();
    JSONInput In(ResultsPath, L + 1);
    ResultLine Result;
    if (!fromJSON(*Line, Result, In.Root))
      return In.error();
    json::Path P(In.Root);
    uint64_t Index = Result.Config.Index;
    if (Index >= Space->size() || !InBundle[Index]) {
      In.fail(P.field("config"), "configuration " + std::to_string(Index) +
                                     " is not one of the bundle's candidates");
      return In.error();
    }
    uint32_t Config = uint32_t(Index);
    if (LineOf[Config]) {
      R.Duplicates.push_back(llvm::formatv(
          "{0}: a second result for configuration {1} ({2}); the first, "
          "at line {3}, is kept",
          Origin, Config, Space->describe(Config), LineOf[Config]));
      continue;
    }
    LineOf[Config] = L + 1;
    auto Meas = measurementOf(Result, R.Declared, In, P, 0);
    if (!Meas)
      return Meas.takeError();
    if (!R.Declared.Sizes.empty()) {
      std::vector<Measurement> Each;
      if (!Result.Sizes) {
        // A failure before the candidate ran at every size (it did not
        // build, it lost the context): the same at each.
        if (Meas->valid()) {
          In.fail(P.field("sizes"),
                  "a correct result of a space of " +
                      std::to_string(R.Declared.Sizes.size()) +
                      " sizes needs each size's");
          return In.error();
        }
        Each.assign(R.Declared.Sizes.size(), *Meas);
      } else if (Result.Sizes->size() != R.Declared.Sizes.size()) {
        In.fail(P.field("sizes"), "one result per size of the space (" +
                                      std::to_string(R.Declared.Sizes.size()) +
                                      ")");
        return In.error();
      }
      for (size_t K = 0; Result.Sizes && K < Result.Sizes->size(); ++K) {
        const SizeLine &S = (*Result.Sizes)[K];
        ResultLine One = Result;
        One.Status = S.Status;
        One.Reason = S.Reason;
        One.Times = S.Times;
        One.BenchmarkMs = S.BenchmarkMs;
        One.VerificationMs = S.VerificationMs;
        auto At =
            measurementOf(One, R.Declared, In, P.field("sizes").index(K), K);
        if (!At)
          return At.takeError();
        Each.push_back(std::move(*At));
      }
      R.PerSize.push_back(std::move(Each));
    }
    if (Result.Device && R.Where.Device.empty())
      R.Where.Device = *Result.Device;
    if (Result.Driver && R.Driver.empty())
      R.Driver = *Result.Driver;
    R.Results.emplace_back(Config, std::move(*Meas));
  }
  return R;
}
