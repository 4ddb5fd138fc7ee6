//===- OutputsTest.cpp - What every mode of `metacu tune` writes ----------===//
#include "tune/Outputs.h"
#include "../TempDir.h"
#include "TuneTestData.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

namespace {

/// A brute force of the bowl, as a replay would have run it.
struct BowlRun {
  test::Bowl B = test::bowl();
  RunInfo Info;
  TuneResult Run;
  BowlRun() {
    Info.Kernel = "bowl";
    Info.Where = {"sm_90", "Test GPU"};
    TuneOptions O;
    O.Strategy = "brute_force";
    Run = llvm::cantFail(runTuning(B.Space, *B.Runner, O));
  }
};

} // namespace

TEST(OutputsTest, WritesEveryOutputAndSaysWhatTheMergeDid) {
  TempDir T;
  BowlRun R;
  RunOutputs O;
  O.T4 = T.path("t4.json");
  O.KTCache = T.path("kt.json");
  O.Html = T.path("r.html");
  O.TuningFile = T.path("bowl.tuning.json");
  ASSERT_FALSE(bool(checkRunOutputs(O, {})));
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  ASSERT_FALSE(bool(writeRunOutputs(O, R.Info, R.B.Space, R.Run, {}, LogOS)));
  for (const std::string *P : {&O.T4, &O.KTCache, &O.Html, &O.TuningFile})
    EXPECT_TRUE(llvm::sys::fs::exists(*P)) << *P;
  EXPECT_NE(Log.find("added the sm_90 entry: x=5 y=3 z=0"), std::string::npos)
      << Log;

  std::string Summary;
  llvm::raw_string_ostream OS(Summary);
  printRunSummary(OS, O, R.Info, R.B.Space, R.Run, "bowl on Test GPU");
  EXPECT_EQ(Summary.rfind("bowl on Test GPU\n", 0), 0u) << Summary;
  EXPECT_NE(Summary.find("brute_force"), std::string::npos) << Summary;
}

// A tuning file of another kernel fails the run's merge: no output is
// written, the T4 and cache files made before it included.
TEST(OutputsTest, AFailedMergeWritesNothing) {
  TempDir T;
  BowlRun R;
  RunOutputs O;
  O.T4 = T.path("t4.json");
  O.KTCache = T.path("kt.json");
  O.TuningFile = T.write("other.tuning.json",
                         "{\"kernel\": \"other\", \"entries\": {}}\n");
  auto Err = writeRunOutputs(O, R.Info, R.B.Space, R.Run, {}, llvm::nulls());
  ASSERT_TRUE(bool(Err));
  llvm::consumeError(std::move(Err));
  EXPECT_FALSE(llvm::sys::fs::exists(O.T4));
  EXPECT_FALSE(llvm::sys::fs::exists(O.KTCache));
}

TEST(OutputsTest, AnOutputMayNotReplaceAFileTheRunReads) {
  TempDir T;
  RunOutputs O;
  std::string Cache = T.write("cache.json", "{}");
  O.Html = Cache;
  auto Err = checkRunOutputs(O, {Cache});
  ASSERT_TRUE(bool(Err));
  EXPECT_NE(llvm::toString(std::move(Err)).find("a file this run reads"),
            std::string::npos);
  // The tuning file is read by the kernel's meta code and updated on
  // purpose.
  RunOutputs Tuning;
  Tuning.TuningFile =
      T.write("k.tuning.json", "{\"kernel\": \"k\", \"entries\": {}}\n");
  EXPECT_FALSE(bool(checkRunOutputs(Tuning, {Tuning.TuningFile})));
}
