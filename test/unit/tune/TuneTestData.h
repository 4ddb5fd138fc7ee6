//===- TuneTestData.h - Small recorded spaces for the tuner's tests -------===//
//
// A Kernel Tuner cache of a space whose optimum is known by construction, so
// tests can assert what a strategy must find rather than what it happened
// to find.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TEST_TUNE_TUNETESTDATA_H
#define METACU_TEST_TUNE_TUNETESTDATA_H

#include "FakeRunner.h"
#include "tune/KernelTunerCache.h"
#include "tune/SearchSpace.h"
#include "tune/runners/ReplayRunner.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <string>

namespace metacu::tune::test {

/// x and y in 1..8, z in {0, 1}; configurations with x * y > 48 are not
/// recorded (restricted). time = 1 + (x-5)^2 + (y-3)^2 + z/2 ms, so the
/// optimum is x=5 y=3 z=0 at 1 ms, and every configuration that is not the
/// optimum has a neighbour (one parameter one step) that is better.
/// x=8 y=2 failed at run time and x=1 y=8 failed to compile.
inline constexpr int BowlRecorded = 2 * (64 - 4); // 7*7, 7*8, 8*7, 8*8 > 48

inline double bowlTime(int X, int Y, int Z) {
  return 1 + (X - 5) * (X - 5) + (Y - 3) * (Y - 3) + Z * 0.5;
}

inline std::string bowlCache() {
  llvm::json::Object Cache;
  for (int X = 1; X <= 8; ++X)
    for (int Y = 1; Y <= 8; ++Y)
      for (int Z = 0; Z <= 1; ++Z) {
        if (X * Y > 48)
          continue;
        llvm::json::Object R{{"x", X},
                             {"y", Y},
                             {"z", Z},
                             {"compile_time", 1000.0},
                             {"benchmark_time", 500.0},
                             {"verification_time", 0},
                             {"framework_time", 0},
                             {"timestamp", "2026-11-23 10:00:00.000000+00:00"}};
        if (X == 8 && Y == 2)
          R["time"] = "RuntimeFailedConfig";
        else if (X == 1 && Y == 8)
          R["time"] = "CompilationFailedConfig";
        else {
          R["time"] = bowlTime(X, Y, Z);
          R["times"] = llvm::json::Array{bowlTime(X, Y, Z)};
        }
        Cache[std::to_string(X) + "," + std::to_string(Y) + "," +
              std::to_string(Z)] = std::move(R);
      }
  llvm::json::Object File{
      {"device_name", "Test GPU"},
      {"kernel_name", "bowl"},
      {"problem_size", llvm::json::Array{1024}},
      {"tune_params_keys", llvm::json::Array{"x", "y", "z"}},
      {"tune_params",
       llvm::json::Object{{"x", llvm::json::Array{1, 2, 3, 4, 5, 6, 7, 8}},
                          {"y", llvm::json::Array{1, 2, 3, 4, 5, 6, 7, 8}},
                          {"z", llvm::json::Array{0, 1}}}},
      {"objective", "time"},
      {"cache", std::move(Cache)}};
  std::string Text;
  llvm::raw_string_ostream(Text) << llvm::json::Value(std::move(File));
  return Text;
}

/// The bowl's cache, its recorded space and a replay runner over it.
struct Bowl {
  KernelTunerCache Cache;
  SearchSpace Space;
  std::unique_ptr<ReplayRunner> Runner;

  uint32_t index(int X, int Y, int Z) const {
    return *Space.indexOf(
        Config{uint32_t(X - 1), uint32_t(Y - 1), uint32_t(Z)});
  }
  uint32_t optimum() const { return index(5, 3, 0); }
};

inline Bowl bowl() {
  Bowl B;
  B.Cache = llvm::cantFail(KernelTunerCache::parse(bowlCache(), "bowl.json"));
  B.Space = llvm::cantFail(B.Cache.recordedSpace());
  B.Runner = llvm::cantFail(ReplayRunner::create(B.Cache, B.Space));
  return B;
}

/// A runner that answers with the bowl's recorded measurements, as its
/// ReplayRunner does, but whose batch size a test sets and whose batches it
/// reads.
inline FakeRunner replayingRunner(const Bowl &B) {
  return FakeRunner([&B](uint32_t I) -> std::optional<double> {
    const Measurement &M = B.Runner->recorded(I);
    if (!M.valid())
      return std::nullopt;
    return M.Objective;
  });
}

} // namespace metacu::tune::test

#endif
