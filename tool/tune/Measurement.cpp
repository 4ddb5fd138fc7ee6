//===- Measurement.cpp - What measuring one configuration gave ------------===//
#include "Measurement.h"

#include "llvm/ADT/StringSwitch.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

using namespace metacu::tune;

bool metacu::tune::fromJSON(const llvm::json::Value &V, Milliseconds &Out,
                            llvm::json::Path P) {
  if (!llvm::json::fromJSON(V, Out.Value, P))
    return false;
  if (Out.Value < 0) {
    P.report("a duration cannot be negative");
    return false;
  }
  return true;
}

std::vector<double>
metacu::tune::values(const std::optional<std::vector<Milliseconds>> &Ds) {
  std::vector<double> Out;
  if (Ds)
    for (const Milliseconds &D : *Ds)
      Out.push_back(D.Value);
  return Out;
}

llvm::StringRef metacu::tune::t4Name(Validity V) {
  switch (V) {
  case Validity::Correct:
    return "correct";
  case Validity::Constraints:
    return "constraints";
  case Validity::Compile:
    return "compile";
  case Validity::Runtime:
    return "runtime";
  case Validity::Correctness:
    return "correctness";
  case Validity::Timeout:
    return "timeout";
  }
  llvm_unreachable("unknown validity");
}

std::optional<Validity> metacu::tune::validityFromT4Name(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Validity>>(Name)
      .Case("correct", Validity::Correct)
      .Case("constraints", Validity::Constraints)
      .Case("compile", Validity::Compile)
      .Case("runtime", Validity::Runtime)
      .Case("correctness", Validity::Correctness)
      .Case("timeout", Validity::Timeout)
      .Default(std::nullopt);
}

llvm::StringRef metacu::tune::kernelTunerName(Validity V) {
  switch (V) {
  case Validity::Compile:
    return "CompilationFailedConfig";
  case Validity::Runtime:
  case Validity::Timeout:
    return "RuntimeFailedConfig";
  case Validity::Correct:
  case Validity::Constraints:
  case Validity::Correctness:
    // Kernel Tuner stops on a wrong result instead of recording it; an
    // InvalidConfig is the closest it can read back.
    return "InvalidConfig";
  }
  llvm_unreachable("unknown validity");
}

std::optional<Validity>
metacu::tune::validityFromKernelTunerName(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Validity>>(Name)
      .Case("InvalidConfig", Validity::Constraints)
      .Case("CompilationFailedConfig", Validity::Compile)
      .Case("RuntimeFailedConfig", Validity::Runtime)
      .Default(std::nullopt);
}

std::string metacu::tune::currentTimestamp() {
  auto Now = std::chrono::system_clock::now();
  std::time_t T = std::chrono::system_clock::to_time_t(Now);
  auto Us = std::chrono::duration_cast<std::chrono::microseconds>(
                Now.time_since_epoch())
                .count() %
            1000000;
  std::tm Utc;
  gmtime_r(&T, &Utc);
  char Buf[40];
  size_t N = std::strftime(Buf, sizeof(Buf), "%Y-%m-%d %H:%M:%S", &Utc);
  std::snprintf(Buf + N, sizeof(Buf) - N, ".%06d+00:00", int(Us));
  return Buf;
}

Metric Metric::fromObjective(llvm::StringRef Name) {
  Metric M;
  M.Name = Name.str();
  M.Maximize = Name.ends_with("/s");
  M.Unit = Name == "time" ? "ms" : M.Maximize ? Name.str() : "";
  return M;
}

std::string Metric::whyNotMeasured(double V) const {
  if (std::isfinite(V) && (V > 0 || (Name != "time" && !Maximize)))
    return "";
  return Name + " " + format(V) +
         " is no measurement (a time is positive and finite: too short a "
         "run for the timer?)";
}

std::string Metric::format(double V, bool WithUnit) const {
  // Objectives span orders of magnitude (0.0123 ms to 47213 GFLOP/s);
  // a fixed number of decimals would print the first as 0.01 or the
  // second with digits that mean nothing.
  int Magnitude = V == 0 || !std::isfinite(V)
                      ? 0
                      : int(std::floor(std::log10(std::fabs(V))));
  int Decimals = std::clamp(4 - Magnitude, 0, 9);
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Decimals, V);
  std::string Text = Buf;
  if (WithUnit && !Unit.empty())
    Text += " " + Unit;
  return Text;
}
