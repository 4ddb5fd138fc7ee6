//===- Measurement.h - What measuring one configuration gave --------------===//
//
// The outcome of one evaluation, shared by runners (which produce it), the
// result cache and the file formats (which store it). Invalid outcomes are
// values, not errors: a configuration that fails to compile is a result of
// the search, and the run goes on.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_MEASUREMENT_H
#define METACU_TUNE_MEASUREMENT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu::tune {

/// Why a configuration has no objective value; names follow T4's
/// "invalidity" enumeration.
enum class Validity {
  Correct,
  /// Rejected by a restriction before it was built.
  Constraints,
  Compile,
  /// Could not launch or failed while running.
  Runtime,
  /// Ran, but the result did not match the reference.
  Correctness,
  Timeout,
};

/// T4's spelling: "correct", "compile", ...
llvm::StringRef t4Name(Validity V);
std::optional<Validity> validityFromT4Name(llvm::StringRef Name);
/// Kernel Tuner's cache spelling of an invalid outcome: "InvalidConfig",
/// "CompilationFailedConfig" or "RuntimeFailedConfig" (it has no others).
llvm::StringRef kernelTunerName(Validity V);
std::optional<Validity> validityFromKernelTunerName(llvm::StringRef Name);

struct Measurement {
  Validity Status = Validity::Correct;
  /// The objective (milliseconds for "time"); meaningful only when Correct.
  double Objective = 0;
  /// Each timed run, in milliseconds.
  std::vector<double> Times;
  /// For an invalid outcome: what went wrong, for the user.
  std::string Reason;
  /// Where the time of the evaluation went, in milliseconds.
  double CompileMs = 0;
  double BenchmarkMs = 0;
  double VerificationMs = 0;
  double FrameworkMs = 0;
  /// When it was measured: ISO 8601 in UTC, as Kernel Tuner writes it
  /// ("2023-12-22 09:53:48.691683+00:00").
  std::string Timestamp;

  bool valid() const { return Status == Validity::Correct; }
  /// Everything the evaluation cost, in milliseconds.
  double totalMs() const {
    return CompileMs + BenchmarkMs + VerificationMs + FrameworkMs;
  }
};

/// A duration as the files metacu reads store it (the journal, a bundle's
/// results, a Kernel Tuner cache): milliseconds, not negative. Each reader
/// reads durations through this type, so that a negative one is an error
/// at its path instead of a replay's clock running backwards or a summary
/// counting a negative cost.
struct Milliseconds {
  double Value = 0;
};
bool fromJSON(const llvm::json::Value &V, Milliseconds &Out,
              llvm::json::Path P);
/// \p D's value, 0 when absent.
inline double valueOr0(const std::optional<Milliseconds> &D) {
  return D ? D->Value : 0;
}
/// The values of \p Ds, none when absent.
std::vector<double> values(const std::optional<std::vector<Milliseconds>> &Ds);

/// The current time as Measurement::Timestamp spells it.
std::string currentTimestamp();

/// What a run optimises: the objective's name, its unit and which way is
/// better. Every output (summary, report, tuning file, T4) states it.
struct Metric {
  std::string Name = "time";
  /// Empty for a quantity without one.
  std::string Unit = "ms";
  bool Maximize = false;

  /// Kernel Tuner's files name the objective only: "time" is in
  /// milliseconds and minimised, a rate such as "GFLOP/s" is its own unit
  /// and maximised, anything else is unitless and minimised.
  static Metric fromObjective(llvm::StringRef Name);

  /// Whether objective \p A is strictly better than \p B.
  bool better(double A, double B) const { return Maximize ? A > B : A < B; }
  /// "min" or "max".
  llvm::StringRef direction() const { return Maximize ? "max" : "min"; }
  /// Why \p V cannot be a measured value of this metric, or empty: JSON
  /// has no infinity (no later run could read it back), and a time or a
  /// rate is positive (a rate over a time of 0 is infinite).
  std::string whyNotMeasured(double V) const;
  /// \p V to five significant digits without an exponent, followed by the
  /// unit when \p WithUnit: "0.51234 ms", "47213 GFLOP/s".
  std::string format(double V, bool WithUnit = true) const;
};

} // namespace metacu::tune

#endif
