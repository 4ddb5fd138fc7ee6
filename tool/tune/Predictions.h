//===- Predictions.h - What metacu report predicts of each configuration -===//
//
// The model-guided strategy measures what the model ranks best first. Its
// predictions come from the candidates' generated code, never from
// measurements: ptxas's resources, the occupancy they allow at the
// candidate's launch, and the phase model's time (tool/report). In a live
// run metacu computes them from the kernel's file; for a replay they are
// read from a predictions file that a `metacu report`-based command wrote
// from the same kernel file (scripts/model-vs-measured --predictions;
// docs/tune.md gives the format).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_PREDICTIONS_H
#define METACU_TUNE_PREDICTIONS_H

#include "SearchSpace.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace metacu::tune {

/// What the model says of one configuration before it runs.
struct Predicted {
  /// False when the candidate did not build (expansion or nvcc failed).
  bool Builds = true;
  /// Why it did not build: the expansion's error or nvcc's first, at the
  /// user's file and line.
  std::string Failure;
  /// Resident blocks per SM at its launch; 0: it cannot launch.
  unsigned BlocksPerSM = 0;
  /// ptxas's spill stores and loads, bytes per thread.
  uint64_t SpillStoreBytes = 0, SpillLoadBytes = 0;
  /// The model's time of the launch; none when it cannot launch.
  std::optional<double> TimeUs;

  /// What the prediction was made of, written for people and for
  /// scripts/gpu-occupancy (which asks the driver about the same kernel
  /// and launch); files need not have it and read() does not read it.
  struct Source {
    /// The candidate's entry function in its translation unit's PTX.
    std::string Mangled;
    /// ptxas's count.
    unsigned Registers = 0;
    /// The launch the space's .launch(...) gives.
    std::array<unsigned, 3> Block{};
    uint64_t DynamicSharedBytes = 0;
  };
  std::optional<Source> From;

  /// Worth measuring at all: builds, launches and does not spill.
  bool promising() const {
    return Builds && BlocksPerSM > 0 && SpillStoreBytes + SpillLoadBytes == 0 &&
           TimeUs;
  }
};

/// What a run's predictions must be of. A file made for another kernel or
/// target would rank this space by times that are not its own, silently:
/// a field given here must be in the file and equal.
struct PredictionsFor {
  std::string Kernel;
  /// "sm_90", "compute_80"; empty where the run does not know (a replay's
  /// cache names a device, not a target).
  std::string Arch, Image;
};

class Predictions {
public:
  /// None for every configuration of a space of \p Size.
  explicit Predictions(size_t Size = 0) : ByConfig(Size) {}

  size_t size() const { return ByConfig.size(); }
  /// What was predicted of configuration \p Index; none when nothing was.
  const std::optional<Predicted> &of(uint32_t Index) const {
    return ByConfig[Index];
  }
  void set(uint32_t Index, Predicted P) { ByConfig[Index] = P; }
  /// How many configurations have a prediction.
  size_t known() const;

  /// Reads a predictions file for \p Space: each record's params name a
  /// configuration; records of configurations outside the space are
  /// skipped. Errors name the file and the record, or the header field
  /// that is not \p For's.
  static llvm::Expected<Predictions> read(llvm::StringRef Path,
                                          const SearchSpace &Space,
                                          const PredictionsFor &For);
  /// \p Text: what \p V was parsed from, for the line and column of a wrong
  /// value (empty: the error names its path only).
  static llvm::Expected<Predictions> fromJSON(const llvm::json::Value &V,
                                              const SearchSpace &Space,
                                              llvm::StringRef Origin,
                                              const PredictionsFor &For = {},
                                              llvm::StringRef Text = "");

  /// The file read() reads, for every configuration with a prediction;
  /// \p Header's fields (kernel, source, arch, image, ...) lead.
  llvm::json::Value toJSON(const SearchSpace &Space,
                           llvm::json::Object Header) const;

private:
  std::vector<std::optional<Predicted>> ByConfig;
};

} // namespace metacu::tune

#endif
