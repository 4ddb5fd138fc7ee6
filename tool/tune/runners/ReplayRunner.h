//===- ReplayRunner.h - Measurements answered from a recorded cache -------===//
//
// Kernel Tuner's simulation mode: instead of compiling and timing a
// configuration, return what a brute-force run recorded for it. Strategies
// can then be developed and compared without a GPU, and a run repeats
// exactly. Time passes on a simulated clock by what each evaluation cost
// when it was recorded (compilation, benchmarking, verification, framework).
//
// A cache may record a million configurations, so the runner keeps of each
// only what a replay needs, in a fixed size (sizeof(Recorded), 48 bytes;
// about 170 bytes an entry with the space's own index, measured in
// docs/tune.md): its objective, its validity, what it cost and the day it
// was measured (the date of a tuning file's entry). Each run's time and the
// time of day are not kept: a replayed evaluation has none.
//
// By default it answers one configuration at a time and the clock runs as
// Kernel Tuner's did, one evaluation after another. With a round model
// (RoundModel) it answers rounds the way `metacu tune` on a GPU runs them:
// a round of several configurations costs a fixed part, then its compiles
// spread over the cores while the GPU times those compiled; strategies are
// told the round size, so how many rounds a strategy needs, and the wall
// clock that costs, can be measured without a GPU.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_RUNNERS_REPLAYRUNNER_H
#define METACU_TUNE_RUNNERS_REPLAYRUNNER_H

#include "../KernelTunerCache.h"
#include "../SearchSpace.h"
#include "Runner.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <vector>

namespace metacu::tune {

/// What a round costs on the GPU, for a replay that runs in rounds.
struct RoundModel {
  /// Parallel compiles: the round size strategies aim for.
  unsigned Cores = 16;
  /// The most configurations a round takes (--batch-size); 0: Cores.
  unsigned Batch = 0;
  /// Each round's fixed cost, whatever it holds (expansion, the harness's
  /// compile and set-up).
  double FixedSeconds = 8;
  /// One configuration's compile, on one core.
  double CompileSeconds = 3;

  unsigned batch() const { return std::max(1u, Batch ? Batch : Cores); }
  /// A round of \p Configs configurations whose timing takes \p GpuSeconds:
  /// the fixed cost, then the compiles in waves of Cores (one compile cannot
  /// be spread) or the GPU's timing, whichever is longer.
  double roundSeconds(size_t Configs, double GpuSeconds) const;
};

class ReplayRunner : public Runner {
public:
  /// A runner for \p Space, every configuration of which \p Cache must
  /// record (its recordedSpace() does).
  static llvm::Expected<std::unique_ptr<ReplayRunner>>
  create(const KernelTunerCache &Cache, const SearchSpace &Space);
  /// Streams the cache file \p Path (KernelTunerCache::stream): its header
  /// into \p Header, the space of exactly the configurations it records
  /// into \p Space, and a runner of them. A configuration recorded twice is
  /// an error at the second.
  static llvm::Expected<std::unique_ptr<ReplayRunner>>
  read(llvm::StringRef Path, KernelTunerCache &Header, SearchSpace &Space);

  const Target &target() const override { return Device; }
  /// Answers in rounds, each costing what \p Model says (its GPU time the
  /// recorded benchmark and verification time of its configurations).
  void runInRounds(const RoundModel &Model) { Rounds = Model; }
  unsigned preferredBatch() const override {
    return Rounds ? Rounds->batch() : 1;
  }
  unsigned roundSize() const override {
    return Rounds ? std::clamp(Rounds->Cores, 1u, Rounds->batch()) : 1;
  }
  llvm::Error run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) override;
  double seconds() const override { return Clock; }

  /// What configuration \p Index recorded.
  Measurement recorded(uint32_t Index) const;

private:
  /// What a replay keeps of an entry.
  struct Recorded {
    double Objective = 0;
    double CompileMs = 0, BenchmarkMs = 0, VerificationMs = 0,
           FrameworkMs = 0;
    /// The timestamp's date as YYYYMMDD; 0: none.
    uint32_t Day = 0;
    Validity Status = Validity::Correct;
    /// Recorded as a number that is no measured value (a time of 0): its
    /// reason is Metric::whyNotMeasured's, else Kernel Tuner's name.
    bool Unmeasured = false;
  };
  static Recorded compact(const Measurement &M);

  explicit ReplayRunner(const KernelTunerCache &Cache);

  Target Device;
  Metric Objective;
  std::vector<Recorded> ByIndex;
  std::optional<RoundModel> Rounds;
  double Clock = 0;
};

} // namespace metacu::tune

#endif
