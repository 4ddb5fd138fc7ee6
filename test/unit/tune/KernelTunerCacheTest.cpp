//===- KernelTunerCacheTest.cpp - Kernel Tuner's cache file format --------===//
#include "tune/KernelTunerCache.h"
#include "tune/Gzip.h"
#include "../TempDir.h"
#include "TuneTestData.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

// Kernel Tuner's layout, with one entry of each outcome, a header field and
// a record field metacu does not know.
static const char *const Small = R"({
"device_name": "NVIDIA RTX A4000",
"kernel_name": "k",
"problem_size": [4096, 4096],
"tune_params_keys": ["bx", "ro"],
"tune_params": {"bx": [16, 32], "ro": [0, 1]},
"objective": "time",
"simulation_mode": false,
"cache": {
"16,0": {"bx": 16, "ro": 0, "time": 2.5, "times": [2.4, 2.6], "compile_time": 800.0, "benchmark_time": 30.0, "GFLOP/s": 100.0, "timestamp": "2023-12-22 09:53:48.691683+00:00"},
"16,1": {"bx": 16, "ro": 1, "time": "CompilationFailedConfig", "compile_time": 900.0},
"32,0": {"bx": 32, "ro": 0, "time": "RuntimeFailedConfig"},
"32,1": {"bx": 32, "ro": 1, "time": "InvalidConfig"}
}
})";

static const KernelTunerCache::Entry &entry(const KernelTunerCache &C,
                                            llvm::StringRef Key) {
  for (const KernelTunerCache::Entry &E : C.Entries)
    if (E.Key == Key)
      return E;
  ADD_FAILURE() << "no entry " << Key.str();
  return C.Entries.front();
}

TEST(KernelTunerCacheTest, ReadsHeaderParametersAndEveryOutcome) {
  KernelTunerCache C = llvm::cantFail(KernelTunerCache::parse(Small, "s.json"));
  EXPECT_EQ(C.DeviceName, "NVIDIA RTX A4000");
  EXPECT_EQ(C.KernelName, "k");
  EXPECT_EQ(C.Objective, "time");
  ASSERT_EQ(C.Params.size(), 2u);
  EXPECT_EQ(C.Params[0].Name, "bx");
  EXPECT_EQ(C.Params[0].Values.size(), 2u);
  ASSERT_EQ(C.Entries.size(), 4u);

  Measurement Ok = llvm::cantFail(C.measurement(entry(C, "16,0")));
  EXPECT_TRUE(Ok.valid());
  EXPECT_EQ(Ok.Objective, 2.5);
  EXPECT_EQ(Ok.Times, (std::vector<double>{2.4, 2.6}));
  EXPECT_EQ(Ok.CompileMs, 800.0);
  EXPECT_EQ(Ok.BenchmarkMs, 30.0);
  EXPECT_EQ(Ok.Timestamp, "2023-12-22 09:53:48.691683+00:00");
  EXPECT_EQ(llvm::cantFail(C.measurement(entry(C, "16,1"))).Status,
            Validity::Compile);
  EXPECT_EQ(llvm::cantFail(C.measurement(entry(C, "32,0"))).Status,
            Validity::Runtime);
  EXPECT_EQ(llvm::cantFail(C.measurement(entry(C, "32,1"))).Status,
            Validity::Constraints);

  SearchSpace S = llvm::cantFail(C.recordedSpace());
  EXPECT_EQ(S.size(), 4u);
  EXPECT_EQ(llvm::cantFail(C.configOf(entry(C, "32,1"))), (Config{1, 1}));
}

static void expectSame(const KernelTunerCache &A, const KernelTunerCache &B) {
  EXPECT_EQ(A.DeviceName, B.DeviceName);
  EXPECT_EQ(A.KernelName, B.KernelName);
  EXPECT_EQ(A.Objective, B.Objective);
  ASSERT_EQ(A.Params.size(), B.Params.size());
  for (size_t I = 0; I < A.Params.size(); ++I) {
    EXPECT_EQ(A.Params[I].Name, B.Params[I].Name);
    EXPECT_EQ(A.Params[I].Values, B.Params[I].Values);
  }
  EXPECT_EQ(llvm::json::Value(llvm::json::Object(A.OtherFields)),
            llvm::json::Value(llvm::json::Object(B.OtherFields)));
  ASSERT_EQ(A.Entries.size(), B.Entries.size());
  for (size_t I = 0; I < A.Entries.size(); ++I) {
    EXPECT_EQ(A.Entries[I].Key, B.Entries[I].Key);
    EXPECT_EQ(llvm::json::Value(llvm::json::Object(A.Entries[I].Record)),
              llvm::json::Value(llvm::json::Object(B.Entries[I].Record)));
  }
}

TEST(KernelTunerCacheTest, RoundTripKeepsUnknownFieldsPlainAndGzip) {
  KernelTunerCache C = llvm::cantFail(KernelTunerCache::parse(Small, "s.json"));
  TempDir T;
  for (const char *Name : {"out.json", "out.json.gz"}) {
    std::string Path = T.path(Name);
    ASSERT_FALSE(bool(metacu::writeOutputs(llvm::cantFail(C.file(Path)))));
    KernelTunerCache Back = llvm::cantFail(KernelTunerCache::read(Path));
    expectSame(C, Back);
    EXPECT_EQ(Back.OtherFields.getBoolean("simulation_mode"), false);
    EXPECT_TRUE(Back.OtherFields.get("problem_size"));
    EXPECT_EQ(entry(Back, "16,0").Record.getNumber("GFLOP/s"), 100.0);
  }
  // Kernel Tuner's reader accepts what we write: it checks the file ends in
  // "}\n}" to tell a closed cache from one still being appended to.
  EXPECT_TRUE(llvm::StringRef(C.print()).rtrim().ends_with("}\n}"));
}

TEST(KernelTunerCacheTest, ReadsACacheKernelTunerLeftOpen) {
  // Kernel Tuner appends `"key": {...},` lines and closes only at the end.
  std::string Text = Small;
  size_t Close = Text.rfind("}\n}");
  std::string Open = Text.substr(0, Close) + ",\n";
  KernelTunerCache C = llvm::cantFail(KernelTunerCache::parse(Open, "o.json"));
  EXPECT_EQ(C.Entries.size(), 4u);
}

TEST(KernelTunerCacheTest, SyntaxErrorsNameFileLineAndColumn) {
  auto C = KernelTunerCache::parse(
      "{\n\"device_name\": \"x\",\n\"cache\": [1,]\n}", "bad.json");
  ASSERT_FALSE(bool(C));
  std::string Message = llvm::toString(C.takeError());
  EXPECT_EQ(Message.rfind("bad.json:3:", 0), 0u) << Message;
}

TEST(KernelTunerCacheTest, ShapeErrorsNameFileAndPath) {
  std::string NoParams =
      R"({"tune_params_keys": ["a"], "tune_params": {}, "cache": {}})";
  auto C = KernelTunerCache::parse(NoParams, "p.json");
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()), "p.json:1: tune_params.a: missing value");

  std::string BadTime = Small;
  BadTime.replace(BadTime.find("\"InvalidConfig\""), 15, "\"Exploded\"");
  KernelTunerCache K =
      llvm::cantFail(KernelTunerCache::parse(BadTime, "t.json"));
  auto M = K.measurement(entry(K, "32,1"));
  ASSERT_FALSE(bool(M));
  EXPECT_EQ(llvm::toString(M.takeError()),
            "t.json:13:1: cache.\"32,1\".time: unknown outcome 'Exploded'");

  std::string Stray = Small;
  Stray.replace(Stray.find("\"bx\": 32, \"ro\": 0"), 9, "\"bx\": 64,");
  KernelTunerCache S = llvm::cantFail(KernelTunerCache::parse(Stray, "v.json"));
  auto Space = S.recordedSpace();
  ASSERT_FALSE(bool(Space));
  EXPECT_NE(llvm::toString(Space.takeError())
                .find("v.json:12:1: cache.\"32,0\".bx: 64 is not among "
                      "tune_params"),
            std::string::npos);
}

TEST(KernelTunerCacheTest, RecordWritesWhatMeasurementReadsBack) {
  test::Bowl B = test::bowl();
  KernelTunerCache Out;
  Out.DeviceName = "NVIDIA H100";
  Out.Params.assign(B.Space.parameters().begin(), B.Space.parameters().end());
  Measurement Good;
  Good.Objective = 1.25;
  Good.Times = {1.2, 1.3};
  Good.CompileMs = 700;
  Measurement Failed;
  Failed.Status = Validity::Compile;
  Out.record(B.Space, B.optimum(), Good);
  Out.record(B.Space, B.index(1, 1, 1), Failed);
  // Recording a configuration again replaces its entry.
  Out.record(B.Space, B.optimum(), Good);
  KernelTunerCache Back =
      llvm::cantFail(KernelTunerCache::parse(Out.print(), "rec.json"));
  ASSERT_EQ(Back.Entries.size(), 2u);
  Measurement G = llvm::cantFail(Back.measurement(entry(Back, "5,3,0")));
  EXPECT_EQ(G.Objective, 1.25);
  EXPECT_EQ(G.Times, Good.Times);
  EXPECT_EQ(G.CompileMs, 700);
  EXPECT_EQ(llvm::cantFail(Back.measurement(entry(Back, "1,1,1"))).Status,
            Validity::Compile);
  EXPECT_EQ(entry(Back, "1,1,1").Record.getString("time"),
            "CompilationFailedConfig");
}

TEST(KernelTunerCacheTest, FloatParametersKeepTheirSpellingInKeys) {
  // Python writes 1.0 and keys the entry "1.0"; the keys metacu writes must
  // be the ones Kernel Tuner looks up.
  const char *Floats = R"({"tune_params_keys": ["f", "n"],
    "tune_params": {"f": [1.0, 2.0], "n": [1, 2]},
    "cache": {"1.0,2": {"f": 1.0, "n": 2, "time": 3.0}}})";
  KernelTunerCache C =
      llvm::cantFail(KernelTunerCache::parse(Floats, "f.json"));
  EXPECT_EQ(C.Params[0].Values[0].kind(), Value::Kind::Float);
  EXPECT_EQ(C.Params[1].Values[0].kind(), Value::Kind::Int);
  SearchSpace S = llvm::cantFail(C.recordedSpace());
  EXPECT_EQ(S.key(0), "1.0,2");
  C.record(S, 0, Measurement());
  EXPECT_EQ(C.Entries.size(), 1u);
}

TEST(KernelTunerCacheTest, ATimeOfZeroIsAFailedMeasurement) {
  std::string Zero = Small;
  Zero.replace(Zero.find("\"time\": 2.5"), 11, "\"time\": 0");
  KernelTunerCache K = llvm::cantFail(KernelTunerCache::parse(Zero, "z.json"));
  Measurement M = llvm::cantFail(K.measurement(entry(K, "16,0")));
  EXPECT_EQ(M.Status, Validity::Runtime);
  EXPECT_NE(M.Reason.find("time 0"), std::string::npos) << M.Reason;
}

TEST(KernelTunerCacheTest, ANumberNoDoubleHoldsIsAnErrorAnywhere) {
  // 1e999 reads as an infinity: in "times" it was averaged into the
  // Kernel Tuner cache metacu writes, in a parameter a value no file spells.
  for (auto [Field, Where] :
       {std::pair{R"("times": [1e999])", "inf.json:10:52: cache.16,0.times[0]"},
        std::pair{R"("extra": 1e999)", "inf.json:10:51: cache.16,0.extra"}}) {
    std::string Text = Small;
    llvm::StringRef Times = R"("times": [2.4, 2.6])";
    Text.replace(Text.find(Times), Times.size(), Field);
    auto C = KernelTunerCache::parse(Text, "inf.json");
    ASSERT_FALSE(bool(C)) << Field;
    std::string Err = llvm::toString(C.takeError());
    EXPECT_EQ(Err, std::string(Where) + ": a number too large for a double");
  }
  std::string Param = Small;
  llvm::StringRef Values = R"("bx": [16, 32])";
  Param.replace(Param.find(Values), Values.size(), R"("bx": [16, 1e999])");
  auto P = KernelTunerCache::parse(Param, "inf.json");
  ASSERT_FALSE(bool(P));
  EXPECT_EQ(
      llvm::toString(P.takeError()),
      "inf.json:6:28: tune_params.bx[1]: a number too large for a double");
}

TEST(KernelTunerCacheTest, AFieldOfTheWrongTypeIsAnErrorAtItsPath) {
  // A compile time that was no number read as 0 (a replay's clock), a run
  // time that was none was dropped, and the run went on.
  struct Case {
    const char *Given, *Wrong, *Error;
  };
  for (Case C : {Case{R"("times": [2.4, 2.6])", R"("times": [2.4, "x"])",
                      "times[1]: expected number"},
                 Case{R"("times": [2.4, 2.6])", R"("times": 2.4)",
                      "times: expected array"},
                 Case{R"("compile_time": 800.0)", R"("compile_time": "800")",
                      "compile_time: expected number"},
                 Case{R"("compile_time": 800.0)", R"("compile_time": -800.0)",
                      "compile_time: a duration cannot be negative"},
                 Case{R"("times": [2.4, 2.6])", R"("times": [2.4, -2.6])",
                      "times[1]: a duration cannot be negative"},
                 Case{R"("timestamp": "2023-12-22 09:53:48.691683+00:00")",
                      R"("timestamp": 5)", "timestamp: expected string"}}) {
    std::string Text = Small;
    size_t At = Text.find(C.Given);
    ASSERT_NE(At, std::string::npos) << C.Given;
    Text.replace(At, strlen(C.Given), C.Wrong);
    KernelTunerCache K =
        llvm::cantFail(KernelTunerCache::parse(Text, "t.json"));
    auto M = K.measurement(entry(K, "16,0"));
    ASSERT_FALSE(bool(M)) << C.Wrong;
    EXPECT_EQ(llvm::toString(M.takeError()),
              "t.json:10: cache.16,0." + std::string(C.Error));
  }
}

TEST(KernelTunerCacheTest, ACacheCutInsideAnEntryIsAnErrorAtTheCut) {
  // An entry Kernel Tuner was writing when it was killed: not closed, as
  // its reader would not close it either.
  std::string Text = Small;
  std::string Torn = Text.substr(0, Text.find("\"32,1\"") + 12);
  auto C = KernelTunerCache::parse(Torn, "torn.json");
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()),
            "torn.json:13:13: unexpected end of file inside a value");
  // Cut after the cache's brace: the document is closed as Kernel Tuner's
  // reader closes it.
  std::string NoRoot = Text.substr(0, Text.rfind('}'));
  EXPECT_EQ(llvm::cantFail(KernelTunerCache::parse(NoRoot, "c.json"))
                .Entries.size(),
            4u);
}

TEST(KernelTunerCacheTest, AHeaderAfterTheCacheIsReadFirst) {
  const char *Late = R"({"cache": {"2,x": {"n": 2, "s": "x", "time": 1.0}},
    "tune_params": {"n": [1, 2], "s": ["x"]}, "objective": "time",
    "tune_params_keys": ["n", "s"], "device_name": "GPU"})";
  KernelTunerCache C = llvm::cantFail(KernelTunerCache::parse(Late, "l.json"));
  EXPECT_EQ(C.DeviceName, "GPU");
  ASSERT_EQ(C.Entries.size(), 1u);
  EXPECT_EQ(llvm::cantFail(C.configOf(C.Entries[0])), (Config{1, 0}));
}

TEST(KernelTunerCacheTest, StreamingGivesEachEntryWithWhereItIsAndKeepsNone) {
  TempDir T;
  std::string Path = T.write("s.json.gz", llvm::cantFail(gzip(Small)));
  std::vector<std::string> Seen;
  auto C = KernelTunerCache::stream(
      Path, [&](const KernelTunerCache &H, KernelTunerCache::Entry &E) {
        EXPECT_EQ(H.Params.size(), 2u);
        Seen.push_back(E.Key + "@" + std::to_string(E.Line) + ":" +
                       std::to_string(E.Column));
        return llvm::Error::success();
      });
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  EXPECT_TRUE(C->Entries.empty());
  EXPECT_EQ(Seen, (std::vector<std::string>{"16,0@10:1", "16,1@11:1",
                                            "32,0@12:1", "32,1@13:1"}));
}

TEST(KernelTunerCacheTest, MalformedEntriesAreErrorsAtTheirLineAndColumn) {
  for (auto [Bad, Where] : std::vector<std::pair<std::string, std::string>>{
           {R"("32,0": [1])", "b.json:12:1: cache.\"32,0\": expected an object"},
           {R"("32,0": {"bx": 32,, "ro": 0})",
            "b.json:12:19: Expected object key"},
           {R"("32,0" {"bx": 32, "ro": 0})", "b.json:12:8: expected ':'"}}) {
    std::string Text = Small;
    size_t At = Text.find("\"32,0\"");
    Text.replace(At, Text.find('\n', At) - At - 1, Bad);
    auto C = KernelTunerCache::parse(Text, "b.json");
    ASSERT_FALSE(bool(C)) << Bad;
    EXPECT_EQ(llvm::toString(C.takeError()), Where);
  }
}

TEST(KernelTunerCacheTest, HeaderErrorsAreAtTheLineOfTheirField) {
  const char *Text = "{\n"
                     "  \"tune_params_keys\": [\"a\"],\n"
                     "  \"tune_params\": {\"a\": [1, 2]},\n"
                     "  \"objective\": 5,\n"
                     "  \"cache\": {}\n"
                     "}\n";
  auto C = KernelTunerCache::parse(Text, "h.json");
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()), "h.json:4: objective: expected string");
  std::string Values = Text;
  Values.replace(Values.find("[1, 2]"), 6, "[1, [2]]");
  Values.replace(Values.find("5"), 1, "\"time\"");
  C = KernelTunerCache::parse(Values, "h.json");
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()).substr(0, 22), "h.json:3: tune_params.");
  // A field given twice is an error at the second key, not at the line
  // before it.
  std::string Twice = Text;
  Twice.replace(Twice.find("\"cache\""), 0, "\"objective\": \"time\",\n  ");
  C = KernelTunerCache::parse(Twice, "h.json");
  ASSERT_FALSE(bool(C));
  EXPECT_EQ(llvm::toString(C.takeError()),
            "h.json:5:3: \"objective\" given twice");
}
