//===- BundleTest.cpp - Declared spaces, bundles and their results --------===//
#include "tune/Bundle.h"
#include "../TempDir.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

// As generator.h's tune_space::describe() writes it: 2 x 3 x 2 = 12
// configurations, 5 of them valid.
static const char *Described =
    R"({"kernel": "k", "where": "k.cu:3", "params": [)"
    R"({"name": "bx", "values": [32, 64]}, {"name": "tile", "values": [1, 2, 4]},)"
    R"({"name": "ldg", "values": [false, true]}], "valid": [0,1,3,7,11],)"
    R"("problem_size": [1024, 512], "metric": "GFLOP/s", "work": 2.5,)"
    R"("direction": "max", "tolerance": 0.0001})";

static DeclaredSpace declared() {
  return llvm::cantFail(DeclaredSpace::parse(Described, "k.cu"));
}

TEST(BundleTest, DeclaredSpaceKeepsExactlyTheValidConfigurations) {
  DeclaredSpace D = declared();
  EXPECT_EQ(D.Kernel, "k");
  EXPECT_EQ(D.ProblemSize, (std::vector<int64_t>{1024, 512}));
  EXPECT_TRUE(D.Objective.Maximize);
  EXPECT_EQ(D.Objective.Name, "GFLOP/s");
  SearchSpace S = llvm::cantFail(D.searchSpace());
  ASSERT_EQ(S.size(), 5u);
  // Product index 7 is bx=64 (7 / 6 = 1), tile=1 (7 % 6 / 2 = 0), ldg=true.
  EXPECT_EQ(S.describe(3), "bx=64 tile=1 ldg=True");
  EXPECT_EQ(S.describe(4), "bx=64 tile=4 ldg=True");
  // 2.5 GFLOP in 0.5 ms.
  EXPECT_DOUBLE_EQ(D.objective(0.5), 5000);
}

TEST(BundleTest, AProductOf2To31IsNotEnumeratedForItsValidConfigurations) {
  // 31 parameters of two values: enumerating the product took 85 s.
  std::string Params;
  for (int I = 0; I < 31; ++I)
    Params += std::string(I ? "," : "") + R"({"name": "p)" + std::to_string(I) +
              R"(", "values": [0, 1]})";
  std::string Text = R"({"kernel": "k", "where": "k.cu:3", "params": [)" +
                     Params + R"(], "valid": [1, 2147483647],)" +
                     R"("problem_size": [1], "metric": "time", "work": 1,)"
                     R"("direction": "min", "tolerance": 0})";
  auto D = DeclaredSpace::parse(Text, "k.cu");
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  auto Start = std::chrono::steady_clock::now();
  auto Got = D->searchSpace();
  ASSERT_TRUE(bool(Got)) << llvm::toString(Got.takeError());
  SearchSpace &S = *Got;
  EXPECT_LT(std::chrono::steady_clock::now() - Start, std::chrono::seconds(1));
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S.value(0, 30).asInt(), 1);
  EXPECT_EQ(S.value(0, 0).asInt(), 0);
  EXPECT_EQ(S.value(1, 0).asInt(), 1);
}

TEST(BundleTest, DeclaredSpaceRoundTripsThroughJSON) {
  DeclaredSpace D = declared();
  std::string Text;
  llvm::raw_string_ostream(Text) << D.toJSON();
  DeclaredSpace E = llvm::cantFail(DeclaredSpace::parse(Text, "again"));
  EXPECT_EQ(E.Valid, D.Valid);
  EXPECT_EQ(E.Work, D.Work);
  EXPECT_EQ(E.Tolerance, D.Tolerance);
  EXPECT_EQ(E.Params.size(), 3u);
  EXPECT_EQ(E.Params[2].Values[1].str(), "True");
}

TEST(BundleTest, MalformedDescriptionsAreErrorsAtTheirPath) {
  auto Check = [](const char *Text, const char *Message) {
    auto D = DeclaredSpace::parse(Text, "k.cu");
    ASSERT_FALSE(bool(D)) << Text;
    EXPECT_EQ(llvm::toString(D.takeError()), Message);
  };
  Check("[]", "k.cu: expected object");
  Check(R"({"kernel": "k", "where": "", "metric": "time", "direction": "min"})",
        "k.cu: params: missing value");
  Check(R"({"kernel": "k", "where": "", "metric": "time", "direction": "min",)"
        R"("params": [], "valid": [3, 2], "problem_size": [], "work": 0,)"
        R"("tolerance": 0})",
        "k.cu: valid[1]: valid configurations must be ascending indices");
  Check(R"({"kernel": "k", "where": "", "metric": "time", "direction": "min",)"
        R"("params": [], "valid": [], "problem_size": [], "work": 0,)"
        R"("tolerance": 0})",
        "k.cu: valid: no valid configuration");
  // Two parameters of two values: 4 configurations, indices 0 to 3.
  Check(R"({"kernel": "k", "where": "", "metric": "time", "direction": "min",)"
        R"("params": [{"name": "x", "values": [1, 2]},)"
        R"({"name": "y", "values": [1, 2]}], "valid": [0, 4],)"
        R"("problem_size": [], "work": 0, "tolerance": 0})",
        "k.cu: valid[1]: configuration 4 is beyond the 4 configurations of "
        "the declared parameters");
  Check(R"({"kernel": "k", "where": "", "metric": "GB/s", "direction": "max",)"
        R"("params": [], "valid": [0], "problem_size": [], "work": 0,)"
        R"("tolerance": 0})",
        "k.cu: work: metric 'GB/s' needs the work of one run "
        "(tune_space::metric)");
  Check(R"({"kernel": "k", "where": "", "metric": "time", "direction": "min",)"
        R"("params": [{"name": "x", "values": [1, [2]]}], "valid": [],)"
        R"("problem_size": [], "work": 0, "tolerance": 0})",
        "k.cu: params[0].values[1]: expected a number, a boolean or a string");
}

TEST(BundleTest, ASpaceOfSizesHasTheWorkOfEachAndRoundTrips) {
  std::string Text = Described;
  Text.insert(
      Text.size() - 1,
      R"(, "sizes": [[1024, 512], [2048, 1024]], "size_work": [2.5, 10])");
  DeclaredSpace D = llvm::cantFail(DeclaredSpace::parse(Text, "k.cu"));
  ASSERT_EQ(D.Sizes.size(), 2u);
  EXPECT_EQ(D.Sizes[1], (std::vector<int64_t>{2048, 1024}));
  // 10 GFLOP in 0.5 ms at the second size; the first's is Work.
  EXPECT_DOUBLE_EQ(D.objective(0.5, 1), 20000);
  EXPECT_DOUBLE_EQ(D.objective(0.5), 5000);
  std::string Again;
  llvm::raw_string_ostream(Again) << D.toJSON();
  DeclaredSpace E = llvm::cantFail(DeclaredSpace::parse(Again, "again"));
  EXPECT_EQ(E.Sizes, D.Sizes);
  EXPECT_EQ(E.SizeWork, D.SizeWork);

  auto Bad = [&](const char *Sizes, const char *Message) {
    std::string T = Described;
    T.insert(T.size() - 1, Sizes);
    auto D = DeclaredSpace::parse(T, "k.cu");
    ASSERT_FALSE(bool(D)) << T;
    EXPECT_EQ(llvm::toString(D.takeError()), Message);
  };
  Bad(R"(, "sizes": [[1024], [2048, 2]], "size_work": [1, 2])",
      "k.cu: sizes[1]: a size is as many dimensions as the first, each at "
      "least 1");
  Bad(R"(, "sizes": [[1024], [0]], "size_work": [1, 2])",
      "k.cu: sizes[1]: a size is as many dimensions as the first, each at "
      "least 1");
  Bad(R"(, "sizes": [[1024], [2048]], "size_work": [1])",
      "k.cu: size_work: one work per size");
  Bad(R"(, "sizes": [[1024], [2048]], "size_work": [1, 0])",
      "k.cu: size_work[1]: metric 'GFLOP/s' needs the work of one run");
}

TEST(BundleTest, AnIntegerAbove2To63IsNoParameterValue) {
  // llvm::json holds 2^63 exactly, as an unsigned integer; it is not read
  // as the double 9.2e18.
  auto D = DeclaredSpace::parse(
      R"({"kernel": "k", "where": "", "metric": "time", "direction": "min",)"
      R"("params": [{"name": "x", "values": [9223372036854775808]}],)"
      R"("valid": [0], "problem_size": [], "work": 0, "tolerance": 0})",
      "k.cu");
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(llvm::toString(D.takeError()),
            "k.cu: params[0].values[0]: an integer above 2^63-1, the largest "
            "a parameter value holds");
}

static std::string read(const std::string &Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "";
}

TEST(BundleTest, ABatchWhoseGenerationFailsIsHalvedAndOnlyTheCulpritFails) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = "sm_90";
  O.Image = "sm_90";
  O.BatchSize = 3;
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  std::vector<size_t> Calls;
  auto Generate =
      [&](llvm::ArrayRef<Candidate> Batch) -> llvm::Expected<std::string> {
    Calls.push_back(Batch.size());
    std::string Text;
    for (const Candidate &C : Batch) {
      if (C.Config == 1)
        return llvm::createStringError("k.cu:9:3: error: too big");
      Text += "// " + C.Name + "\n";
    }
    return Text;
  };
  ASSERT_FALSE(
      bool(writeBundle(T.path("b"), D, S, {0, 1, 2, 3, 4}, O, Generate)));
  // [0 1 2] fails, then [0] works, [1 2] fails, 1 and 2 alone; [3 4]
  // works.
  EXPECT_EQ(Calls, (std::vector<size_t>{3, 1, 2, 1, 1, 2}));
  std::string Manifest = read(T.path("b/manifest.json"));
  EXPECT_NE(Manifest.find(
                R"("reason": "generation failed: k.cu:9:3: error: too big")"),
            std::string::npos)
      << Manifest;
  EXPECT_NE(Manifest.find(R"("gencode": "arch=compute_90,code=sm_90")"),
            std::string::npos);
  EXPECT_EQ(read(T.path("b/src/./batch_0.cu")), "// k_tune_0\n");
  EXPECT_EQ(read(T.path("b/src/./batch_2.cu")), "// k_tune_3\n// k_tune_4\n");
  EXPECT_EQ(read(T.path("b/run.py")), runScript().str());
  EXPECT_EQ(read(T.path("b/dask_runner.py")), daskRunnerScript().str());
  EXPECT_FALSE(read(T.path("b/include/metacu/tune.h")).empty());
}

TEST(BundleTest, OneFailureInALargeBatchCostsAFewExpansions) {
  // A live run expands its whole space in one batch: a candidate whose meta
  // code fails is found by halving, not by expanding each candidate alone.
  TempDir T;
  std::string Values, Valid;
  for (int I = 0; I < 64; ++I) {
    Values += (I ? ", " : "") + std::to_string(I * 8);
    Valid += (I ? ", " : "") + std::to_string(I);
  }
  auto D = DeclaredSpace::parse(
      R"({"kernel": "k", "where": "k.cu:3", "params": [{"name": "p", "values": [)" +
          Values + R"(]}], "valid": [)" + Valid +
          R"(], "problem_size": [1024], "metric": "GB/s", "work": 1, "direction": "max", "tolerance": 0})",
      "k.cu");
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  SearchSpace S = llvm::cantFail(D->searchSpace());
  BundleOptions O;
  O.Arch = O.Image = "sm_90";
  O.BatchSize = 64;
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  std::vector<uint32_t> All(64);
  for (uint32_t I = 0; I < 64; ++I)
    All[I] = I;
  size_t Calls = 0;
  auto Generate =
      [&](llvm::ArrayRef<Candidate> Batch) -> llvm::Expected<std::string> {
    ++Calls;
    for (const Candidate &C : Batch)
      if (C.Config == 37)
        return llvm::createStringError("k.cu:9:3: error: too big");
    return std::string("// batch\n");
  };
  ASSERT_FALSE(bool(writeBundle(T.path("b"), *D, S, All, O, Generate)));
  // The whole, then two halves per level down to the culprit: 1 + 2 * 6.
  EXPECT_EQ(Calls, 13u);
  std::string Manifest = read(T.path("b/manifest.json"));
  EXPECT_NE(Manifest.find(R"("config": 37,)"), std::string::npos) << Manifest;
  EXPECT_EQ(llvm::StringRef(Manifest).count("generation failed"), 1u);
}

TEST(BundleTest, ResultsReadBackWithMediansFailuresAndATornLastLine) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = "sm_80";
  O.Image = "compute_80";
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Generate = [](llvm::ArrayRef<Candidate>) -> llvm::Expected<std::string> {
    return std::string("//\n");
  };
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0, 1, 2, 3}, O, Generate)));
  EXPECT_NE(read(T.path("b/manifest.json"))
                .find(R"("gencode": "arch=compute_80,code=sm_{gpu}")"),
            std::string::npos);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(T.path("b/results.jsonl"), EC);
    OS << R"({"config": 2, "status": "correct", "times": [0.4, 0.1, 0.3, 0.2], )"
          R"("compile_ms": 700, "device": "GPU X", "driver": "13.0"})"
       << "\n"
       << R"({"config": 0, "status": "runtime", "reason": "illegal address"})"
       << "\n"
       << R"({"config": 2, "status": "correct", "times": [9]})"
       << "\n"
       << R"({"config": 3, "status": "timeout", "reason": "no result"})"
       << "\n"
       << R"({"config": 1, "status": "corr)";
  }
  BundleResults R = llvm::cantFail(readBundle(T.path("b")));
  EXPECT_EQ(R.Candidates, 4u);
  ASSERT_EQ(R.Duplicates.size(), 1u);
  EXPECT_NE(R.Duplicates[0].find("results.jsonl:3: a second result for "
                                 "configuration 2 (bx=32 tile=2 ldg=True); "
                                 "the first, at line 1, is kept"),
            std::string::npos)
      << R.Duplicates[0];
  EXPECT_EQ(R.Where.Arch, "sm_80");
  EXPECT_EQ(R.Where.Device, "GPU X");
  EXPECT_EQ(R.Driver, "13.0");
  EXPECT_EQ(R.Options.Image, "compute_80");
  ASSERT_EQ(R.Results.size(), 3u);
  EXPECT_EQ(R.Results[0].first, 2u);
  // The median of four runs is the mean of the middle two: 0.25 ms, and
  // 2.5 GFLOP / 0.25 ms = 10000 GFLOP/s.
  EXPECT_DOUBLE_EQ(R.Results[0].second.Objective, 10000);
  EXPECT_EQ(R.Results[0].second.CompileMs, 700);
  EXPECT_EQ(R.Results[1].second.Status, Validity::Runtime);
  EXPECT_EQ(R.Results[1].second.Reason, "illegal address");
  EXPECT_EQ(R.Results[2].second.Status, Validity::Timeout);
}

TEST(BundleTest, AResultForAConfigurationOutsideTheBundleIsAnError) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = O.Image = "sm_90";
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Generate = [](llvm::ArrayRef<Candidate>) -> llvm::Expected<std::string> {
    return std::string("//\n");
  };
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0}, O, Generate)));
  auto Missing = readBundle(T.path("b"));
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("run the bundle's run.py"),
            std::string::npos);
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(T.path("b/results.jsonl"), EC);
    OS << R"({"config": 0, "status": "correct", "times": [1]})"
       << "\n"
       << R"({"config": 5, "status": "correct", "times": [1]})"
       << "\n";
  }
  auto R = readBundle(T.path("b"));
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            T.path("b/results.jsonl") +
                ":2:12: config: configuration 5 is not one of the bundle's "
                "candidates");
  // Configuration 1 is in the space (of 5) but not in the bundle.
  T.write("b/results.jsonl",
          "{\"config\": 1, \"status\": \"correct\", \"times\": [1]}\n");
  auto Outside = readBundle(T.path("b"));
  ASSERT_FALSE(bool(Outside));
  EXPECT_NE(
      llvm::toString(Outside.takeError())
          .find(":1:12: config: configuration 1 is not one of the bundle's "
                "candidates"),
      std::string::npos);
}

TEST(BundleTest, AWrongValueOfAResultIsAnErrorAtItsLineAndPath) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = O.Image = "sm_90";
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Generate = [](llvm::ArrayRef<Candidate>) -> llvm::Expected<std::string> {
    return std::string("//\n");
  };
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0, 1}, O, Generate)));
  auto Check = [&](const std::string &Second, const std::string &Message) {
    T.write("b/results.jsonl",
            "{\"config\": 0, \"status\": \"correct\", \"times\": [1]}\n" +
                Second + "\n");
    auto R = readBundle(T.path("b"));
    ASSERT_FALSE(bool(R)) << Second;
    EXPECT_EQ(llvm::toString(R.takeError()),
              T.path("b/results.jsonl") + ":2:" + Message);
  };
  Check(R"({"config": 1, "status": "correct", "times": [1, "2"]})",
        "49: times[1]: expected number");
  Check(R"({"config": 1, "status": "correct", "times": [1, -2]})",
        "49: times[1]: a duration cannot be negative");
  Check(R"({"config": 1, "status": "correct", "times": [1], "compile_ms": -4})",
        "64: compile_ms: a duration cannot be negative");
  Check(R"({"config": 1, "status": "fine", "times": [1]})",
        "25: status: \"fine\" is no status (correct, compile, runtime, "
        "correctness or timeout)");
  Check(R"({"config": -1, "status": "correct"})",
        "12: config: expected the index of a configuration");
  Check(R"({"status": "correct"})", "1: config: missing value");
  Check(R"({"config": 1, "status": "correct", "times": [1e999]})",
        "46: times[0]: a number too large for a double");
}

TEST(BundleTest, EachCandidateCarriesItsShardMacroAndWeight) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = O.Image = "sm_90";
  O.BatchSize = 2;
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Generate =
      [](llvm::ArrayRef<Candidate> Batch) -> llvm::Expected<std::string> {
    std::string Text;
    for (const Candidate &C : Batch)
      Text += "__global__ void " + C.Name +
              "() { int x = " + std::to_string(C.Config) + "; }\n";
    return Text;
  };
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0, 3}, O, Generate)));
  std::string Manifest = read(T.path("b/manifest.json"));
  EXPECT_NE(Manifest.find(R"("shard_macro": "METACU_TUNE_IN_SHARD_k_tune_3")"),
            std::string::npos)
      << Manifest;
  // int x = 3 ; : the tokens between the braces.
  EXPECT_NE(Manifest.find(R"("weight": 5)"), std::string::npos) << Manifest;
  std::string Batch = read(T.path("b/src/./batch_0.cu"));
  EXPECT_NE(Batch.find("#if !defined(METACU_TUNE_SHARD) || "
                       "defined(METACU_TUNE_IN_SHARD_k_tune_0)"),
            std::string::npos)
      << Batch;
}

TEST(BundleTest, NeverOverMeasurementsOrForeignFilesWithoutForce) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = O.Image = "sm_90";
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Generate = [](llvm::ArrayRef<Candidate>) -> llvm::Expected<std::string> {
    return std::string("//\n");
  };
  // An earlier bundle that has not run is replaced.
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0}, O, Generate)));
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0, 1}, O, Generate)));
  // One that has run keeps its measurements.
  std::string Results = T.write("b/results.jsonl", "{\"config\": 0}\n");
  llvm::Error E = writeBundle(T.path("b"), D, S, {0}, O, Generate);
  ASSERT_TRUE(bool(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("holds results.jsonl"),
            std::string::npos);
  EXPECT_EQ(read(Results), "{\"config\": 0}\n");
  // Nor into a folder of someone else's files.
  std::string Mine = T.write("mine/run.py", "mine\n");
  llvm::Error F = writeBundle(T.path("mine"), D, S, {0}, O, Generate);
  ASSERT_TRUE(bool(F));
  EXPECT_NE(llvm::toString(std::move(F)).find("holds no metacu bundle"),
            std::string::npos);
  EXPECT_EQ(read(Mine), "mine\n");
  // --force replaces them.
  O.Force = true;
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0}, O, Generate)));
  EXPECT_FALSE(llvm::sys::fs::exists(Results));
}

TEST(BundleTest, AResultOfNoTimeIsAFailedMeasurement) {
  TempDir T;
  DeclaredSpace D = declared();
  SearchSpace S = llvm::cantFail(D.searchSpace());
  BundleOptions O;
  O.Arch = O.Image = "sm_90";
  O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
  auto Generate = [](llvm::ArrayRef<Candidate>) -> llvm::Expected<std::string> {
    return std::string("//\n");
  };
  ASSERT_FALSE(bool(writeBundle(T.path("b"), D, S, {0, 1}, O, Generate)));
  T.write("b/results.jsonl",
          "{\"config\": 0, \"status\": \"correct\", \"times\": [0, 0, 0]}\n"
          "{\"config\": 1, \"status\": \"correct\", \"times\": [0]}\n");
  BundleResults R = llvm::cantFail(readBundle(T.path("b")));
  ASSERT_EQ(R.Results.size(), 2u);
  for (const auto &[Config, M] : R.Results) {
    EXPECT_EQ(M.Status, Validity::Runtime) << Config;
    EXPECT_NE(M.Reason.find("is no measurement"), std::string::npos)
        << M.Reason;
  }
}

TEST(BundleTest, ADirectionIsMinOrMax) {
  std::string Sideways = Described;
  Sideways.replace(Sideways.find("\"max\""), 5, "\"sideways\"");
  auto D = DeclaredSpace::parse(Sideways, "manifest.json");
  ASSERT_FALSE(bool(D));
  EXPECT_EQ(llvm::toString(D.takeError()),
            "manifest.json: direction: \"min\" or \"max\", not "
            "\"sideways\"");
}
