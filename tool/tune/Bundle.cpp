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

llvm::Expected<DeclaredSpace> DeclaredSpace::parse(llvm::StringRef Text,
                                                   llvm::StringRef Origin) {
  auto V = parseJSON(Text, Origin);
  if (!V)
    return V.takeError();
  const json::Object *O = V->getAsObject();
  if (!O)
    return bad(Origin, "a tuning space is a JSON object");
  DeclaredSpace D;
  auto Str = [&](llvm::StringRef K, std::string &Out) -> llvm::Error {
    auto S = O->getString(K);
    if (!S)
      return bad(Origin, "'" + K + "' must be a string");
    Out = S->str();
    return llvm::Error::success();
  };
  std::string Metric, Direction;
  for (auto [K, Out] : {std::pair{"kernel", &D.Kernel},
                        {"where", &D.Where},
                        {"metric", &Metric},
                        {"direction", &Direction}})
    if (llvm::Error E = Str(K, *Out))
      return std::move(E);
  const json::Array *Params = O->getArray("params");
  const json::Array *Valid = O->getArray("valid");
  const json::Array *Size = O->getArray("problem_size");
  auto Work = O->getNumber("work");
  auto Tolerance = O->getNumber("tolerance");
  if (!Params || !Valid || !Size || !Work || !Tolerance)
    return bad(Origin, "a tuning space needs params, valid, problem_size, "
                       "work and tolerance");
  for (const json::Value &P : *Params) {
    const json::Object *PO = P.getAsObject();
    const json::Array *Values = PO ? PO->getArray("values") : nullptr;
    auto Name = PO ? PO->getString("name") : std::nullopt;
    if (!Values || !Name)
      return bad(Origin, "a parameter needs a name and values");
    Parameter Param{Name->str(), {}};
    for (const json::Value &X : *Values) {
      auto Val = Value::fromJSON(X);
      if (!Val)
        return bad(Origin, llvm::toString(Val.takeError()));
      Param.Values.push_back(std::move(*Val));
    }
    D.Params.push_back(std::move(Param));
  }
  for (const json::Value &X : *Valid) {
    auto I = X.getAsUINT64();
    if (!I || (!D.Valid.empty() && *I <= D.Valid.back()))
      return bad(Origin, "valid configurations must be ascending indices");
    D.Valid.push_back(*I);
  }
  for (const json::Value &X : *Size) {
    auto N = X.getAsInteger();
    if (!N)
      return bad(Origin, "problem_size must be integers");
    D.ProblemSize.push_back(*N);
  }
  if (Direction != "min" && Direction != "max")
    return bad(Origin,
               "'direction' is \"min\" or \"max\", not \"" + Direction + "\"");
  D.Objective = Metric::fromObjective(Metric);
  D.Objective.Maximize = Direction == "max";
  if (Metric != "time" && !(*Work > 0))
    return bad(Origin, "metric '" + Metric +
                           "' needs the work of one run (tune_space::metric)");
  D.Work = *Work;
  D.Tolerance = *Tolerance;
  // Left out by generators older than the limit.
  D.MaxThreadsPerBlock = O->getInteger("max_threads_per_block").value_or(0);
  D.OverMaxThreads = O->getInteger("over_max_threads").value_or(0) > 0
                         ? uint64_t(*O->getInteger("over_max_threads"))
                         : 0;
  if (const json::Array *Launches = O->getArray("launches")) {
    if (Launches->size() != D.Valid.size())
      return bad(Origin, "one launch per valid configuration");
    for (const json::Value &L : *Launches) {
      const json::Array *Dims = L.getAsArray();
      if (!Dims || Dims->size() != 6)
        return bad(Origin, "a launch is block x, y, z and grid x, y, z");
      std::array<uint64_t, 6> A;
      for (size_t I = 0; I < 6; ++I) {
        auto N = (*Dims)[I].getAsUINT64();
        if (!N || *N == 0)
          return bad(Origin, "a launch's dimensions are positive integers");
        A[I] = *N;
      }
      D.Launches.push_back(A);
    }
  }
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

double DeclaredSpace::objective(double Ms) const {
  return Objective.Name == "time" ? Ms : Work / (Ms / 1000);
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
  json::Array Size, Flags;
  for (int64_t N : D.ProblemSize)
    Size.push_back(N);
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

static llvm::Expected<Measurement> measurementOf(const json::Object &R,
                                                 const DeclaredSpace &D,
                                                 llvm::StringRef Origin) {
  Measurement M;
  auto Status = R.getString("status");
  auto V = Status ? validityFromT4Name(*Status) : std::nullopt;
  if (!V)
    return bad(Origin, "a result needs a status (correct, compile, runtime, "
                       "correctness or timeout)");
  M.Status = *V;
  if (auto Why = R.getString("reason"))
    M.Reason = Why->str();
  if (const json::Array *Times = R.getArray("times"))
    for (const json::Value &T : *Times)
      if (auto X = T.getAsNumber())
        M.Times.push_back(*X);
  if (M.valid()) {
    if (M.Times.empty())
      return bad(Origin, "a correct result needs its times");
    std::vector<double> Sorted = M.Times;
    std::sort(Sorted.begin(), Sorted.end());
    size_t N = Sorted.size();
    double Median =
        N % 2 ? Sorted[N / 2] : (Sorted[N / 2 - 1] + Sorted[N / 2]) / 2;
    M.Objective = D.objective(Median);
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
  M.CompileMs = R.getNumber("compile_ms").value_or(0);
  M.BenchmarkMs = R.getNumber("benchmark_ms").value_or(0);
  M.VerificationMs = R.getNumber("verification_ms").value_or(0);
  if (auto T = R.getString("timestamp"))
    M.Timestamp = T->str();
  return M;
}

llvm::Expected<BundleResults> metacu::tune::readBundle(llvm::StringRef Dir) {
  std::string ManifestPath = (Dir + "/manifest.json").str();
  auto Text = readInputFile(ManifestPath);
  if (!Text)
    return Text.takeError();
  auto V = parseJSON(*Text, ManifestPath);
  if (!V)
    return V.takeError();
  const json::Object *M = V->getAsObject();
  const json::Value *Declared = M ? M->get("declared") : nullptr;
  if (!Declared)
    return bad(ManifestPath, "not a metacu tune bundle manifest");
  BundleResults R;
  std::string DeclaredText = llvm::formatv("{0}", *Declared);
  auto D = DeclaredSpace::parse(DeclaredText, ManifestPath);
  if (!D)
    return D.takeError();
  R.Declared = std::move(*D);
  R.Options.Arch = M->getString("arch").value_or("").str();
  R.Options.Image = M->getString("image").value_or("").str();
  R.Options.Strategy = M->getString("strategy").value_or("").str();
  R.Where.Arch = R.Options.Arch;

  std::string ResultsPath = (Dir + "/results.jsonl").str();
  auto Results = readInputFile(ResultsPath);
  if (!Results)
    return llvm::createStringError(llvm::toString(Results.takeError()) +
                                   " (run the bundle's run.py first)");
  auto Space = R.Declared.searchSpace();
  if (!Space)
    return Space.takeError();
  llvm::SmallVector<llvm::StringRef> Lines;
  llvm::StringRef(*Results).split(Lines, '\n', -1, false);
  std::vector<bool> Seen(Space->size());
  for (size_t L = 0; L < Lines.size(); ++L) {
    std::string Origin = llvm::formatv("{0}:{1}", ResultsPath, L + 1);
    auto Line = parseJSON(Lines[L], ResultsPath, L + 1);
    if (!Line) {
      llvm::consumeError(Line.takeError());
      // Only the last line can be torn, by a run killed while writing it.
      if (L + 1 == Lines.size())
        break;
      return bad(Origin, "not a JSON line");
    }
    const json::Object *O = Line->getAsObject();
    auto Config = O ? O->getInteger("config") : std::nullopt;
    if (!Config || *Config < 0 || size_t(*Config) >= Space->size())
      return bad(Origin, "a result needs the index of its configuration");
    if (Seen[*Config])
      continue;
    Seen[*Config] = true;
    auto Meas = measurementOf(*O, R.Declared, Origin);
    if (!Meas)
      return Meas.takeError();
    if (auto Dev = O->getString("device"); Dev && R.Where.Device.empty())
      R.Where.Device = Dev->str();
    if (auto Drv = O->getString("driver"); Drv && R.Driver.empty())
      R.Driver = Drv->str();
    R.Results.emplace_back(uint32_t(*Config), std::move(*Meas));
  }
  return R;
}
