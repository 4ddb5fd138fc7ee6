//===- Gpu.h - The runner that compiles and times candidates on GPUs ------===//
//
// A space of up to RunWideCandidates configurations is one bundle (Bundle.h)
// for the whole run, written before the first round: every candidate in one
// expansion (its fixed cost, most of an expansion's, paid once), whose
// harness run.py compiles once. run.py stays up for the run (--rounds): each
// round the strategy asks for is a line to it; it compiles the round's
// shards (cubins of the candidates' kernels, in parallel over the host's
// cores) and times them on one harness process per GPU that it keeps across
// rounds, so the problem is made once per GPU per run; each result is
// reported as run.py tells it, before the round ends. A larger space has a
// bundle per round (round_N/), each one expansion with its own harness.
// The two-step flow runs the same bundle by hand on another machine.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_RUNNERS_GPU_H
#define METACU_TUNE_RUNNERS_GPU_H

#include "../Bundle.h"
#include "Runner.h"

#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

namespace metacu::tune {

struct GpuRunnerOptions {
  BundleOptions Bundle;
  /// Where the batches' bundles go (kept, for a look at what ran).
  std::string WorkDir;
  /// run.py's --gpus: "0", "0,1" or "all".
  std::string Gpus = "0";
  /// Parallel nvcc processes; 0: run.py's default, every core.
  unsigned Jobs = 0;
  std::string Python = "python3";
  std::string Nvcc = "nvcc";
  /// run.py's --clang: compiles the bundle's harness (host side only)
  /// where it has no device code of its own; empty: nvcc always.
  std::string Clang;
  /// Seconds a candidate may run before it counts as hung.
  double Timeout = 60;
  /// The largest space expanded whole, once per run; a larger one is
  /// expanded a round at a time (docs/tune.md).
  size_t RunWideCandidates = 512;
};

/// The Clang that run.py compiles the bundle's harness with (--clang):
/// $METACU_TUNE_CLANG where it is set (empty: none), else the `clang`
/// beside metacu's executable (scripts/pack puts one there), else the one
/// of the LLVM metacu was built with, where each is; "" where none is.
std::string harnessClang();

/// nvidia-smi's answer for the first GPU of a run (run.py's --gpus): its
/// name, which keys the results, and its driver; or why there is none.
struct GpuQuery {
  std::string Name;
  std::string Driver;
  std::string Error;
};

/// Asks nvidia-smi about the first of \p Gpus in the background: the
/// answer depends on nothing the run expands, so it is asked before the
/// expansion and waited for after (one process less on a run's start).
std::future<GpuQuery> queryGpu(llvm::StringRef Gpus);

/// The run's run.py (`--rounds --early KEY`), started before the file
/// expands: it starts at once the harness that the last live run of the
/// same kernel (KEY) recorded, so that the harness's CUDA context and
/// problem are made while metacu expands the file, and reads the bundle
/// once the first round's line comes (docs/tune.md). Its input is a socket
/// (a write after it stopped is an error, not a SIGPIPE that ends metacu);
/// dropped unused (a run that fails before its bundle, or expands a round
/// at a time), its input's end ends it and its harness, and the folder it
/// made for itself is removed.
struct EarlyRunPy {
  int Pid = -1;
  int ToServer = -1;
  std::FILE *FromServer = nullptr;
  /// The outermost folder made for it (the work folder or its run/), or "".
  std::string Made;
  EarlyRunPy() = default;
  EarlyRunPy(const EarlyRunPy &) = delete;
  EarlyRunPy &operator=(const EarlyRunPy &) = delete;
  ~EarlyRunPy();
};

/// Starts the run.py of a live run in Options.WorkDir's run/ (where the
/// runner writes the run's bundle, GpuRunner::create) for the kernel \p Key
/// names (its file and architecture), before anything is expanded; null
/// where it cannot start (the runner then starts run.py after the bundle,
/// as ever).
std::unique_ptr<EarlyRunPy> startEarlyRunPy(const GpuRunnerOptions &Options,
                                            llvm::StringRef Key);

class GpuRunner : public Runner {
public:
  using Generator =
      std::function<llvm::Expected<std::string>(llvm::ArrayRef<Candidate>)>;

  /// A runner for the GPU \p Query found (queryGpu of Options.Gpus); \p
  /// Early (startEarlyRunPy of the same options), where there is one,
  /// serves the run's bundle.
  static llvm::Expected<std::unique_ptr<GpuRunner>>
  create(const DeclaredSpace &D, const SearchSpace &Space,
         GpuRunnerOptions Options, Generator Generate, GpuQuery Query,
         std::unique_ptr<EarlyRunPy> Early = nullptr);

  const Target &target() const override { return Where; }
  const std::string &driver() const { return Driver; }
  unsigned preferredBatch() const override { return Batch; }
  /// One candidate per nvcc worker (--jobs, else every core, as run.py).
  unsigned roundSize() const override;
  llvm::Error run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) override;
  /// Ends run.py (and its harnesses) if it serves the run.
  ~GpuRunner() override;

private:
  GpuRunner(const DeclaredSpace &D, const SearchSpace &Space)
      : Declared(D), Space(Space) {}
  const DeclaredSpace &Declared;
  const SearchSpace &Space;
  GpuRunnerOptions Options;
  Generator Generate;
  Target Where;
  std::string Driver;
  unsigned Batch = 1;
  unsigned Round = 0;

  /// The run's bundle and the run.py that serves its rounds.
  llvm::Error startServing();
  llvm::Error runServed(llvm::ArrayRef<uint32_t> Configs, DoneFn Done);
  /// Ends the run.py that serves the rounds; the error says how it ended
  /// (its exit status, its log's last line).
  llvm::Error stopServing();
  /// A round as a bundle of its own.
  llvm::Error runRound(llvm::ArrayRef<uint32_t> Configs, DoneFn Done);
  /// Where the file has a harness that does not depend on the candidates
  /// (BundleOptions::HarnessSource), starts its compile into run.py's cache
  /// (`run.py --harness-only`, from a bundle of no candidates) before the
  /// first expansion of candidates, so that the two overlap; the rounds'
  /// run.py waits for it and finds it built. Once per run; a harness that
  /// does not start is the rounds' run.py's to build (and report).
  void prebuildHarness();
  int HarnessPid = -1;
  bool HarnessStarted = false;
  std::unique_ptr<EarlyRunPy> Early;
  std::string ServedDir;
  int ServerPid = -1;
  /// Its standard input (a socket) and output.
  int ToServer = -1;
  std::FILE *FromServer = nullptr;
};

} // namespace metacu::tune

#endif
