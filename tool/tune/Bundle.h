//===- Bundle.h - Candidates, harness and runner script in one folder -----===//
//
// The GPU side of tuning in a form that needs nvcc and Python but no LLVM:
// metacu writes a bundle (the candidates, each batch one expansion of the
// kernel's file, the runtime headers, a manifest and run.py); run.py
// compiles the batches in parallel and times them on one or more GPUs,
// appending one line per candidate to results.jsonl; metacu reads that
// back. The GPU runner does the same in a scratch folder per batch, so the
// one-command flow and the two-step flow are one code path.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_BUNDLE_H
#define METACU_TUNE_BUNDLE_H

#include "Measurement.h"
#include "SearchSpace.h"
#include "runners/Runner.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace metacu::tune {

/// What a kernel's `metacu::tune_space` declares, as its generator
/// describes it (runtime/include/metacu/detail/generator.h).
struct DeclaredSpace {
  std::string Kernel;
  /// "file:line" of the declaration.
  std::string Where;
  std::vector<Parameter> Params;
  /// The configurations every restriction accepts, as indices into the
  /// product (last parameter fastest), ascending.
  std::vector<uint64_t> Valid;
  std::vector<int64_t> ProblemSize;
  /// The problem sizes every candidate is timed at (tune_space::sizes);
  /// empty for a space of one problem, ProblemSize. ProblemSize and Work
  /// are then the first size's.
  std::vector<std::vector<int64_t>> Sizes;
  /// The work of one run at each of Sizes, for a rate.
  std::vector<double> SizeWork;
  Metric Objective;
  /// For a rate: the work of one run in the metric's unit times seconds.
  double Work = 0;
  double Tolerance = 0;
  /// How each valid configuration is launched (tune_space::launch), in the
  /// order of Valid: block x, y, z, then grid x, y, z; empty when the space
  /// does not say.
  std::vector<std::array<uint64_t, 6>> Launches;
  /// The most threads a block may have (tune_space::max_threads_per_block;
  /// 0: no limit), and how many configurations the restrictions accept
  /// that have more: they are not in Valid.
  int64_t MaxThreadsPerBlock = 0;
  uint64_t OverMaxThreads = 0;
  /// The space was handed over through metacu::tuned_kernels (its
  /// host_table() a tuned_table the harness fills at run time).
  bool Table = false;
  /// The expansion that described the space also holds every valid
  /// configuration as a candidate (candidatesFor's names and order): a
  /// live run's describe asks for it of a space it expands whole.
  bool Whole = false;

  /// Parses one line of the generator's description; \p Origin names it in
  /// errors.
  static llvm::Expected<DeclaredSpace> parse(llvm::StringRef Text,
                                             llvm::StringRef Origin);
  llvm::json::Value toJSON() const;
  /// The valid configurations as a search space.
  llvm::Expected<SearchSpace> searchSpace() const;
  /// The objective of a run of \p Ms milliseconds (at Sizes[\p Size]).
  double objective(double Ms, size_t Size = 0) const;
};

/// A candidate as the kernel's meta code sees it: the name of the kernel to
/// emit and its parameters.
struct Candidate {
  uint32_t Config = 0;
  std::string Name;
  llvm::json::Object Params;
};

/// What a candidate's name puts between its kernel's and its index.
inline constexpr llvm::StringLiteral CandidateInfix = "_tune_";

/// The name of configuration \p Config's candidate: "<kernel>_tune_<index>"
/// (a describe request hands the generator CandidateInfix to name a whole
/// space's candidates alike, metacu/meta.h).
std::string candidateName(const DeclaredSpace &D, uint32_t Config);

/// The candidates of \p Configs, named by candidateName().
std::vector<Candidate> candidatesFor(const DeclaredSpace &D,
                                     const SearchSpace &Space,
                                     llvm::ArrayRef<uint32_t> Configs);

/// Expands the kernel's file with \p Batch's candidates injected; an error
/// is the expansion's.
using GenerateFn =
    llvm::function_ref<llvm::Expected<std::string>(llvm::ArrayRef<Candidate>)>;

struct BundleOptions {
  /// The architecture the results are for ("sm_90").
  std::string Arch;
  /// What nvcc builds: a real architecture ("sm_90") or a PTX image that
  /// the driver compiles at load ("compute_80").
  std::string Image;
  /// Candidates per expansion (one translation unit, which run.py compiles
  /// in shards).
  unsigned BatchSize = 8;
  int Warmup = 3;
  int Repeat = 11;
  /// Extra nvcc flags (include folders are added by the bundle itself).
  std::vector<std::string> NvccFlags;
  /// metacu's runtime headers, copied into the bundle.
  std::string RuntimeInclude;
  /// Where the batches go inside the bundle's source tree, so that the
  /// kernel file's relative includes resolve ("samples/convolution").
  std::string SourceDir = ".";
  /// Files the kernel's file includes, copied into the source tree: path
  /// there, path here.
  std::vector<std::pair<std::string, std::string>> Files;
  /// The source of a harness that does not depend on the candidates (the
  /// describe expansion of a file whose spaces are all read through
  /// metacu::tuned_kernels); empty: each batch's harness is the batch's
  /// own host code.
  std::string HarnessSource;
  /// Recorded in the manifest: what chose the configurations.
  std::string Strategy = "brute_force";
  /// Write into a folder that holds something other than a bundle without
  /// results (a bundle's measurements, files metacu did not write).
  bool Force = false;
};

/// Writes the bundle for \p Configs into \p Dir: a new or empty folder, or
/// one holding a bundle that has no results.jsonl yet, whose files are
/// replaced; anything else (measurements, files metacu did not write) is
/// refused unless Options.Force, which replaces them and removes
/// results.jsonl. A batch
/// whose expansion fails is halved until the failing candidates are alone
/// (a few expansions per failure, however large the batch); one that still
/// fails is recorded as a compile failure with the expansion's
/// message, and run.py reports it without building it.
llvm::Error writeBundle(llvm::StringRef Dir, const DeclaredSpace &D,
                        const SearchSpace &Space,
                        llvm::ArrayRef<uint32_t> Configs,
                        const BundleOptions &Options, GenerateFn Generate);

/// What run.py measured.
struct BundleResults {
  DeclaredSpace Declared;
  BundleOptions Options;
  /// The device (empty when nothing ran) and the image's architecture.
  Target Where;
  std::string Driver;
  /// In the order they completed; of the first size when the space has
  /// several (Declared.Sizes).
  std::vector<std::pair<uint32_t, Measurement>> Results;
  /// With several sizes: PerSize[I][K] is Results[I]'s configuration at
  /// Declared.Sizes[K] (a candidate that lost the context at one size
  /// failed at every size).
  std::vector<std::vector<Measurement>> PerSize;
  /// How many candidates the bundle holds (Results has one result for
  /// each that ran).
  size_t Candidates = 0;
  /// "FILE:LINE: ..." of each result for a configuration that already has
  /// one: the first is kept.
  std::vector<std::string> Duplicates;
};

/// Reads \p Dir's manifest and results.jsonl. Candidates without a result
/// (the run was stopped) are left out; a result for a configuration that is
/// not one of the bundle's candidates is an error, and a second result for
/// one is left out and named in Duplicates. Errors name the file, the line
/// of a result and the path to the wrong value.
llvm::Expected<BundleResults> readBundle(llvm::StringRef Dir);

/// The text of run.py.
llvm::StringRef runScript();
/// The text of dask_runner.py, run.py's runner on a Dask cluster.
llvm::StringRef daskRunnerScript();

} // namespace metacu::tune

#endif
