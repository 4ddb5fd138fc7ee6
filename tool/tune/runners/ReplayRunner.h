//===- ReplayRunner.h - Measurements answered from a recorded cache -------===//
//
// Kernel Tuner's simulation mode: instead of compiling and timing a
// configuration, return what a brute-force run recorded for it. Strategies
// can then be developed and compared without a GPU, and a run repeats
// exactly. Time passes on a simulated clock by what each evaluation cost
// when it was recorded (compilation, benchmarking, verification, framework).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_RUNNERS_REPLAYRUNNER_H
#define METACU_TUNE_RUNNERS_REPLAYRUNNER_H

#include "../KernelTunerCache.h"
#include "../SearchSpace.h"
#include "Runner.h"

#include <memory>
#include <vector>

namespace metacu::tune {

class ReplayRunner : public Runner {
public:
  /// A runner for \p Space, every configuration of which \p Cache must
  /// record (its recordedSpace() does).
  static llvm::Expected<std::unique_ptr<ReplayRunner>>
  create(const KernelTunerCache &Cache, const SearchSpace &Space);

  const Target &target() const override { return Device; }
  llvm::Error run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) override;
  double seconds() const override { return Clock; }

  /// What configuration \p Index recorded.
  const Measurement &recorded(uint32_t Index) const { return ByIndex[Index]; }

private:
  ReplayRunner() = default;

  Target Device;
  std::vector<Measurement> ByIndex;
  double Clock = 0;
};

} // namespace metacu::tune

#endif
