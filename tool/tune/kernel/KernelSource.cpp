//===- KernelSource.cpp - A kernel's tuning space and candidates ----------===//
#include "KernelSource.h"
#include "KeptExpansion.h"
#include "support/Output.h"
#include "tune/Shards.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <cstdlib>

using namespace metacu;
using namespace metacu::tune;
namespace json = llvm::json;

static constexpr const char *RequestVariable = "METACU_TUNE_REQUEST";

/// Expands \p Path with \p Request in a temporary file named by the
/// environment variable generator.h reads; the variable is unset after.
static llvm::Expected<ExpandedFile> expandWith(llvm::StringRef Path,
                                               json::Object Request,
                                               const ArchList &Archs,
                                               const PipelineOptions &Opts) {
  llvm::SmallString<128> RequestPath;
  int FD;
  if (std::error_code EC = llvm::sys::fs::createTemporaryFile(
          "metacu-tune-request", "json", FD, RequestPath))
    return llvm::createStringError("cannot create a temporary file: " +
                                   EC.message());
  llvm::scope_exit Remove([&] {
    llvm::sys::fs::remove(RequestPath);
    ::unsetenv(RequestVariable);
  });
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << json::Value(std::move(Request));
    if (OS.has_error())
      return llvm::createStringError("cannot write " + RequestPath);
  }
  ::setenv(RequestVariable, RequestPath.c_str(), 1);
  // The tuning build's code (the problem, METACU_TUNE_MAIN and the tables
  // it launches from) is inside #ifdef METACU_TUNE, and its meta code must
  // run too.
  return expandFile(Path, Archs, tuningBuild(Opts));
}

PipelineOptions metacu::tune::tuningBuild(const PipelineOptions &Opts) {
  PipelineOptions Tuning = Opts;
  Tuning.Flags.Args.push_back("-DMETACU_TUNE");
  return Tuning;
}

/// The name a live run's expansion of \p Path is kept under: a hash of
/// what decides it besides the files it reads (those are checked by their
/// content, findKeptExpansion): metacu's executable (its generator library
/// and headers with it), the file's path, the request \p Named, the
/// architectures and every option of the expansion; "" where metacu's
/// executable cannot be found.
static std::string keptExpansionKey(llvm::StringRef Path, json::Object Named,
                                    const ArchList &Archs,
                                    const PipelineOptions &Opts) {
  std::string Exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&keptExpansionKey));
  llvm::sys::fs::file_status Status;
  llvm::SmallString<256> Absolute(Path);
  if (Exe.empty() || llvm::sys::fs::status(Exe, Status) ||
      llvm::sys::fs::make_absolute(Absolute))
    return "";
  PipelineOptions Tuning = tuningBuild(Opts);
  json::Array Flags;
  for (const std::string &A : Tuning.Flags.Args)
    Flags.push_back(A);
  json::Object What{
      {"metacu", Exe},
      {"size", int64_t(Status.getSize())},
      {"modified",
       int64_t(Status.getLastModificationTime().time_since_epoch().count())},
      {"file", Absolute.str()},
      {"request", std::move(Named)},
      {"archs", Archs.names()},
      {"flags", std::move(Flags)},
      {"standard", Tuning.Flags.Standard},
      {"toolkit", Tuning.Toolkit.Root},
      {"runtime", Tuning.RuntimeInclude},
      {"nvcc host pass", Tuning.AsNvccHostPass},
      {"untagged helpers", Tuning.UntaggedHelpers},
      {"verify", Tuning.Verify},
      {"max output", int64_t(Tuning.MaxOutputBytes)},
      {"timeout", Tuning.Limits.TimeoutSeconds},
      {"memory", int64_t(Tuning.Limits.MemoryBytes)},
  };
  std::string Text;
  llvm::raw_string_ostream(Text) << json::Value(std::move(What));
  return llvm::utohexstr(llvm::xxh3_64bits(Text), /*LowerCase=*/true);
}

static bool under(llvm::StringRef File, llvm::StringRef Dir) {
  return !Dir.empty() && File.starts_with(Dir) &&
         (Dir.ends_with("/") || File.drop_front(Dir.size()).starts_with("/"));
}

/// The longest folder that holds every one of \p Paths.
static std::string commonFolder(llvm::ArrayRef<std::string> Paths) {
  std::string Common = llvm::sys::path::parent_path(Paths.front()).str();
  for (const std::string &P : Paths)
    while (!under(P, Common) && Common != "/")
      Common = llvm::sys::path::parent_path(Common).str();
  return Common;
}

/// \p Path expanded with \p Request (a live run's describe of a space it
/// expands whole, its description written to \p Out), or that expansion
/// kept by an earlier run of the same inputs (KeptExpansion.h); kept for
/// later runs when it succeeds.
static llvm::Expected<ExpandedFile>
expandKept(llvm::StringRef Path, json::Object Request, const ArchList &Archs,
           const PipelineOptions &Opts, llvm::ArrayRef<std::string> Watched,
           llvm::StringRef Out) {
  std::string Dir = keptExpansionDir();
  json::Object Named = Request;
  Named.erase("out"); // a temporary name of this run
  std::string Key =
      Dir.empty() ? "" : keptExpansionKey(Path, std::move(Named), Archs, Opts);
  if (Key.empty())
    return expandWith(Path, std::move(Request), Archs, Opts);
  // Real paths, as the expansion's dependencies are.
  std::vector<std::string> Watching;
  for (const std::string &W : Watched) {
    llvm::SmallString<256> Real(W);
    if (llvm::sys::fs::real_path(W, Real))
      llvm::sys::fs::make_absolute(Real);
    Watching.push_back(Real.str().str());
  }
  if (std::optional<KeptExpansion> Kept =
          findKeptExpansion(Dir, Key, Watching)) {
    if (llvm::Error E = writeOutput(Out, Kept->Described))
      return std::move(E);
    ExpandedFile X;
    X.Text = std::move(Kept->Text);
    X.Dependencies = std::move(Kept->Dependencies);
    return X;
  }
  auto X = expandWith(Path, std::move(Request), Archs, Opts);
  if (!X)
    return X.takeError();
  if (auto Described = llvm::MemoryBuffer::getFile(Out))
    keepExpansion(Dir, Key,
                  {X->Text, X->Dependencies, (*Described)->getBuffer().str()},
                  Watching);
  return X;
}

llvm::Expected<KernelSource>
KernelSource::describe(llvm::StringRef Path, llvm::StringRef Kernel,
                       const ArchList &Archs, const PipelineOptions &Opts,
                       size_t Whole, llvm::ArrayRef<std::string> Watched) {
  llvm::SmallString<128> Out;
  if (std::error_code EC = llvm::sys::fs::getPotentiallyUniqueTempFileName(
          "metacu-tune-space", "jsonl", Out))
    return llvm::createStringError("cannot name a temporary file: " +
                                   EC.message());
  llvm::scope_exit Remove([&] { llvm::sys::fs::remove(Out); });
  auto Request = [&](bool Candidates) {
    json::Object R{{"mode", "describe"}, {"out", Out.str()}};
    if (Candidates) {
      R["whole"] = int64_t(Whole);
      R["infix"] = CandidateInfix;
      if (!Kernel.empty())
        R["kernel"] = Kernel;
    }
    return R;
  };
  auto Expanded =
      Whole ? expandKept(Path, Request(true), Archs, Opts, Watched, Out)
            : expandWith(Path, Request(false), Archs, Opts);
  if (!Expanded && Whole) {
    // A candidate whose meta code fails is the batches' to report, each
    // alone (writeBundle); the space is described without them, from an
    // empty description (the failed run may have written some).
    llvm::consumeError(Expanded.takeError());
    llvm::sys::fs::remove(Out);
    Expanded = expandWith(Path, Request(false), Archs, Opts);
  }
  if (!Expanded)
    return Expanded.takeError();
  auto Buf = llvm::MemoryBuffer::getFile(Out);
  llvm::SmallVector<llvm::StringRef> Lines;
  if (Buf)
    (*Buf)->getBuffer().split(Lines, '\n', -1, false);
  std::vector<DeclaredSpace> Spaces;
  bool AllTables = !Lines.empty();
  for (llvm::StringRef Line : Lines) {
    auto D = DeclaredSpace::parse(Line, Path);
    if (!D)
      return D.takeError();
    AllTables &= D->Table;
    // A space handed to tune_candidates twice is described twice.
    if (llvm::none_of(Spaces, [&](const DeclaredSpace &S) {
          return S.Kernel == D->Kernel;
        }))
      Spaces.push_back(std::move(*D));
  }
  std::string Names;
  for (const DeclaredSpace &S : Spaces)
    Names += (Names.empty() ? "" : ", ") + S.Kernel;
  KernelSource K;
  K.Path = Path.str();
  if (Kernel.empty()) {
    if (Spaces.size() != 1)
      return llvm::createStringError(
          Path + ": " +
          (Spaces.empty()
               ? "declares no tuning space (a metacu::tune_space handed to "
                 "metacu::tune_candidates; docs/tune.md)"
               : "declares several tuning spaces (" + Names +
                     "); --kernel picks one"));
    K.Declared = std::move(Spaces.front());
  } else {
    auto It = llvm::find_if(
        Spaces, [&](const DeclaredSpace &S) { return S.Kernel == Kernel; });
    if (It == Spaces.end())
      return llvm::createStringError(
          Path + ": no tuning space named '" + Kernel + "'" +
          (Names.empty() ? "" : " (it declares " + Names + ")"));
    K.Declared = std::move(*It);
  }

  // Kernel Tuner leaves these out without a word; say so.
  if (uint64_t N = K.Declared.OverMaxThreads)
    llvm::errs() << llvm::formatv(
        "metacu tune: {0}: {1} configuration{2} of more than {3} threads a "
        "block {4} (tune_space::max_threads_per_block)\n",
        K.Declared.Kernel, N, N == 1 ? "" : "s", K.Declared.MaxThreadsPerBlock,
        N == 1 ? "is not a candidate" : "are not candidates");

  // What a build elsewhere needs besides the expansion: the headers the
  // file includes from its own tree (not the toolkit's, the system's or
  // metacu's, which the bundle has).
  llvm::SmallString<256> Self;
  if (std::error_code EC = llvm::sys::fs::real_path(Path, Self))
    return llvm::createStringError(Path + ": " + EC.message());
  llvm::SmallString<256> Runtime;
  llvm::sys::fs::real_path(Opts.RuntimeInclude, Runtime);
  std::vector<std::string> Kept{Self.str().str()};
  for (const std::string &Dep : Expanded->Dependencies) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Dep, Real) || Real == Self ||
        under(Real, "/usr") || under(Real, Opts.Toolkit.Root) ||
        under(Real, Runtime))
      continue;
    Kept.push_back(Real.str().str());
  }
  std::string Root = commonFolder(Kept);
  auto Rel = [&](llvm::StringRef P) {
    return P.drop_front(Root.size()).ltrim('/').str();
  };
  K.SourceDir = Rel(llvm::sys::path::parent_path(Self));
  if (K.SourceDir.empty())
    K.SourceDir = ".";
  for (size_t I = 1; I < Kept.size(); ++I)
    K.Files.emplace_back(Rel(Kept[I]), Kept[I]);
  K.Dependencies = std::move(Expanded->Dependencies);
  if (K.Declared.Whole) {
    // The harness compiles with every candidate's shard left out: their
    // kernels empty, its table filled at run time.
    std::vector<std::string> Names;
    for (size_t I = 0; I < K.Declared.Valid.size(); ++I)
      Names.push_back(candidateName(K.Declared, uint32_t(I)));
    if (AllTables)
      K.HarnessSource = guardCandidates(Expanded->Text, Names).Text;
    K.WholeSpace = std::move(Expanded->Text);
  } else if (AllTables) {
    K.HarnessSource = std::move(Expanded->Text);
  }
  return K;
}

llvm::Expected<std::string>
KernelSource::generate(llvm::ArrayRef<Candidate> Batch, const ArchList &Archs,
                       const PipelineOptions &Opts) const {
  // Distinct configurations of the space, as many as it has: all of them.
  if (!WholeSpace.empty() && Batch.size() == Declared.Valid.size())
    return WholeSpace;
  json::Array Cands;
  for (const Candidate &C : Batch)
    Cands.push_back(
        json::Object{{"name", C.Name}, {"params", json::Object(C.Params)}});
  auto Expanded = expandWith(Path,
                             json::Object{{"mode", "generate"},
                                          {"kernel", Declared.Kernel},
                                          {"candidates", std::move(Cands)}},
                             Archs, Opts);
  if (!Expanded)
    return Expanded.takeError();
  return std::move(Expanded->Text);
}
