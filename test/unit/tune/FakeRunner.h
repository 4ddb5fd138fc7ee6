//===- FakeRunner.h - A runner whose behaviour a test dictates ------------===//
#ifndef METACU_TEST_TUNE_FAKERUNNER_H
#define METACU_TEST_TUNE_FAKERUNNER_H

#include "tune/runners/Runner.h"

#include <functional>
#include <optional>
#include <vector>

namespace metacu::tune::test {

/// Measures configuration I as time Cost(I) (invalid when Cost gives
/// nothing), one simulated second each plus RoundSeconds a call, GpuMs of
/// which it reports as benchmark time; fails after FailAfter measurements.
class FakeRunner : public Runner {
public:
  explicit FakeRunner(std::function<std::optional<double>(uint32_t)> Cost)
      : Cost(std::move(Cost)) {}

  const Target &target() const override { return Device; }
  unsigned preferredBatch() const override { return Batch; }
  unsigned roundSize() const override { return Round ? Round : Batch; }
  double seconds() const override { return Clock; }

  llvm::Error run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) override {
    Batches.emplace_back(Configs.begin(), Configs.end());
    Clock += RoundSeconds;
    for (size_t I = 0; I < Configs.size(); ++I) {
      if (FailAfter && Measured.size() == *FailAfter)
        return llvm::createStringError("device lost");
      Measured.push_back(Configs[I]);
      Clock += 1;
      Measurement M;
      M.BenchmarkMs = GpuMs;
      if (auto T = Cost(Configs[I]))
        M.Objective = *T;
      else
        M.Status = Validity::Runtime;
      if (!Done(I, M))
        break;
    }
    return llvm::Error::success();
  }

  Target Device{"sm_90", "Fake GPU"};
  unsigned Batch = 1;
  /// What roundSize() says; 0: Batch.
  unsigned Round = 0;
  double RoundSeconds = 0;
  double GpuMs = 0;
  std::optional<size_t> FailAfter;
  std::vector<uint32_t> Measured;
  std::vector<std::vector<uint32_t>> Batches;

private:
  std::function<std::optional<double>(uint32_t)> Cost;
  double Clock = 0;
};

} // namespace metacu::tune::test

#endif
