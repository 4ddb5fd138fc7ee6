//===- Runner.h - What measures configurations ----------------------------===//
//
// A runner turns configurations of a search space into measurements: the
// replay runner looks them up in a recorded cache file, the GPU runner
// compiles and times them. The interface takes a batch so that a runner can
// compile several candidates in parallel, and reports each result as it
// completes so that nothing finished is lost when the run stops.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_RUNNERS_RUNNER_H
#define METACU_TUNE_RUNNERS_RUNNER_H

#include "../Measurement.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace metacu::tune {

/// What measurements are valid for: results from one GPU never answer for
/// another, and a device name alone does not say which compiled image ran
/// (an H100 can run an sm_80 image).
struct Target {
  /// The architecture of the code that ran, e.g. "sm_90".
  std::string Arch;
  /// The device's name as its driver reports it.
  std::string Device;
};

class Runner {
public:
  virtual ~Runner();

  virtual const Target &target() const = 0;

  /// How many configurations the runner can usefully take in one call (e.g.
  /// its compile workers); strategies that can propose several at once
  /// propose this many.
  virtual unsigned preferredBatch() const { return 1; }

  /// How many configurations a round should hold to keep the runner busy,
  /// at most preferredBatch(): about one per compile worker, since a round
  /// costs a fixed part plus its compiles spread over the workers, so up to
  /// this many cost about as much as one. Strategies that can propose
  /// several configurations at once aim for this many a round.
  virtual unsigned roundSize() const { return preferredBatch(); }

  /// Called once per measured configuration with its position in the batch,
  /// on the thread that called run(). Returning false asks the runner to
  /// start no more measurements.
  using DoneFn = llvm::function_ref<bool(size_t Position, Measurement M)>;

  /// Measures \p Configs (indices into the runner's search space), calling
  /// \p Done for each as it completes, in any order. An invalid
  /// configuration is a measurement, not an error; an error means the
  /// runner cannot go on (device lost, harness crashed) and the
  /// configurations not yet reported were not measured.
  virtual llvm::Error run(llvm::ArrayRef<uint32_t> Configs, DoneFn Done) = 0;

  /// Seconds on the clock that time budgets use. Real runners use the wall
  /// clock; the replay runner advances a simulated clock by the recorded
  /// cost of each evaluation, so replayed time budgets are deterministic.
  virtual double seconds() const;
};

} // namespace metacu::tune

#endif
