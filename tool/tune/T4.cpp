//===- T4.cpp - Results in the T4 auto-tuning results format --------------===//
#include "T4.h"
#include "Gzip.h"

#include "llvm/Support/FormatVariadic.h"

using namespace metacu::tune;

static llvm::json::Object t4Result(const SearchSpace &Space,
                                   const Evaluation &E,
                                   llvm::StringRef Objective) {
  const Measurement &M = E.M;
  llvm::json::Object Measured{{"name", Objective},
                              {"unit", Metric::fromObjective(Objective).Unit}};
  // T4 has no field for why a configuration failed; the value of the
  // objective carries it, as Kernel Tuner's error strings do.
  if (M.valid())
    Measured["value"] = M.Objective;
  else
    Measured["value"] =
        M.Reason.empty() ? kernelTunerName(M.Status).str() : M.Reason;
  llvm::json::Object Times{{"compilation_time", M.CompileMs},
                           {"benchmark", M.BenchmarkMs},
                           {"framework", M.FrameworkMs},
                           {"validation", M.VerificationMs},
                           {"runtimes", llvm::json::Array(M.Times)}};
  llvm::json::Object Result{
      {"configuration", Space.toJSON(E.Config)},
      {"objectives", llvm::json::Array{Objective}},
      {"times", std::move(Times)},
      {"invalidity", t4Name(M.Status)},
      // 1 unless the result was checked and found wrong; T4 has no "not
      // checked", and a failed build or launch produced no result to check.
      {"correctness", M.Status == Validity::Correctness ? 0 : 1},
      {"measurements", llvm::json::Array{std::move(Measured)}}};
  // Optional in T4, and none is known of a replayed evaluation.
  if (!M.Timestamp.empty())
    Result["timestamp"] = M.Timestamp;
  return Result;
}

llvm::json::Value metacu::tune::t4Results(const SearchSpace &Space,
                                          llvm::ArrayRef<Evaluation> Trace,
                                          llvm::StringRef Objective) {
  llvm::json::Array Results;
  for (const Evaluation &E : Trace)
    Results.push_back(t4Result(Space, E, Objective));
  return llvm::json::Object{{"schema_version", "1.0.0"},
                            {"results", std::move(Results)}};
}

llvm::Expected<metacu::OutputFile>
metacu::tune::t4File(llvm::StringRef Path, const SearchSpace &Space,
                     llvm::ArrayRef<Evaluation> Trace,
                     llvm::StringRef Objective) {
  std::string Text;
  llvm::raw_string_ostream(Text)
      << llvm::formatv("{0:2}", t4Results(Space, Trace, Objective)) << '\n';
  return maybeGzipFile(Path, Text);
}
