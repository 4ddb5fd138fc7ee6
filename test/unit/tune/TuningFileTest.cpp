//===- TuningFileTest.cpp - Reading, merging and writing tuning files -----===//
#include "tune/TuningFile.h"
#include "../TempDir.h"
#include "TuneTestData.h"
#include "support/Output.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

namespace {

TuningEntry entry(std::string Device, double Value, int Block = 64) {
  TuningEntry E;
  E.Params = llvm::json::Object{{"block_size_x", Block}, {"tile", 2}};
  E.Device = std::move(Device);
  E.Date = "2026-11-23";
  E.Value = Value;
  E.Metacu = "0.1.0";
  E.Strategy = "ils";
  E.Evaluations = 120;
  return E;
}

} // namespace

TEST(TuningFileTest, PrintsInAStableOrderAndReadsBack) {
  TuningFile F;
  F.Kernel = "conv";
  // Inserted out of order; architectures sort by number, not as text.
  for (const char *Arch : {"sm_100", "sm_90a", "sm_75", "sm_90"})
    F.merge(Arch, entry("GPU " + std::string(Arch), 0.51), false);
  F.Entries["sm_90"].Driver = "13.0";
  F.Entries["sm_90"].Note = "compute_80 image";
  F.Entries["sm_90"].Other["reviewed"] = true;
  F.Other["comment"] = "by hand";
  std::string Text = F.print();
  EXPECT_LT(Text.find("\"sm_75\""), Text.find("\"sm_90\""));
  EXPECT_LT(Text.find("\"sm_90\""), Text.find("\"sm_90a\""));
  EXPECT_LT(Text.find("\"sm_90a\""), Text.find("\"sm_100\""));
  EXPECT_NE(Text.find(R"(    "sm_90": {
      "params": {
        "block_size_x": 64,
        "tile": 2
      },
      "device": "GPU sm_90",
      "driver": "13.0",
      "date": "2026-11-23",
      "metric": {
        "name": "time",
        "value": 0.51,
        "unit": "ms",
        "direction": "min"
      },
      "metacu": "0.1.0",
      "strategy": "ils",
      "evaluations": 120,
      "note": "compute_80 image",
      "reviewed": true
    },)"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.back(), '\n');

  TuningFile Back = llvm::cantFail(TuningFile::parse(Text, "t.json"));
  EXPECT_EQ(Back.print(), Text);
  EXPECT_EQ(Back.Entries.size(), 4u);
  EXPECT_EQ(Back.Entries["sm_90"].Note, "compute_80 image");
  EXPECT_EQ(Back.Entries["sm_75"].Driver, "");
}

TEST(TuningFileTest, MergeKeepsABetterResultOfTheSameDevice) {
  TuningFile F;
  EXPECT_EQ(F.merge("sm_90", entry("H100", 0.51), false).Outcome,
            MergeOutcome::Added);
  F.merge("sm_80", entry("A100", 0.9), false);

  // Worse on the same device: kept, and the other architecture untouched.
  MergeResult Worse = F.merge("sm_90", entry("H100", 0.53, 128), false);
  EXPECT_EQ(Worse.Outcome, MergeOutcome::KeptRecorded);
  EXPECT_EQ(F.Entries["sm_90"].Value, 0.51);
  EXPECT_NE(Worse.describe("sm_90", entry("H100", 0.53)).find("--force"),
            std::string::npos);
  // Equal is not better either.
  EXPECT_EQ(F.merge("sm_90", entry("H100", 0.51, 128), false).Outcome,
            MergeOutcome::KeptRecorded);

  MergeResult Better = F.merge("sm_90", entry("H100", 0.49, 128), false);
  EXPECT_EQ(Better.Outcome, MergeOutcome::Improved);
  ASSERT_TRUE(Better.Previous.has_value());
  EXPECT_EQ(Better.Previous->Value, 0.51);
  EXPECT_EQ(*F.Entries["sm_90"].Params.getInteger("block_size_x"), 128);

  EXPECT_EQ(F.merge("sm_90", entry("H100", 0.6), true).Outcome,
            MergeOutcome::Forced);
  EXPECT_EQ(F.Entries["sm_90"].Value, 0.6);
  EXPECT_EQ(F.Entries["sm_80"].Value, 0.9);
}

TEST(TuningFileTest, ResultsThatDoNotCompareReplaceTheEntry) {
  TuningFile F;
  F.merge("sm_80", entry("A100", 0.5), false);
  // An H100 running the sm_80 image is slower or faster for other reasons.
  EXPECT_EQ(F.merge("sm_80", entry("H100", 0.7), false).Outcome,
            MergeOutcome::Replaced);
  EXPECT_EQ(F.Entries["sm_80"].Device, "H100");

  TuningEntry Rate = entry("H100", 900);
  Rate.Objective = Metric::fromObjective("GFLOP/s");
  EXPECT_EQ(F.merge("sm_80", Rate, false).Outcome, MergeOutcome::Replaced);
  // Higher is better now.
  Rate.Value = 800;
  EXPECT_EQ(F.merge("sm_80", Rate, false).Outcome, MergeOutcome::KeptRecorded);
  Rate.Value = 1000;
  EXPECT_EQ(F.merge("sm_80", Rate, false).Outcome, MergeOutcome::Improved);

  // Other parameters: the kernel's space changed.
  TuningEntry Wider = Rate;
  Wider.Value = 10;
  Wider.Params["unroll"] = 4;
  EXPECT_EQ(F.merge("sm_80", Wider, false).Outcome, MergeOutcome::Replaced);
}

TEST(TuningFileTest, ErrorsNameTheFileAndTheValue) {
  auto Missing = TuningFile::parse(
      R"({"kernel": "k", "entries": {"sm_90": {"params": {},
          "metric": {"name": "time", "value": 1, "direction": "min"}}}})",
      "t.json");
  EXPECT_EQ(llvm::toString(Missing.takeError()),
            "t.json:1:38: entries.sm_90.device: missing value");
  auto Direction = TuningFile::parse(
      R"({"entries": {"sm_90": {"params": {}, "device": "d",
          "metric": {"name": "time", "value": 1, "direction": "up"}}}})",
      "t.json");
  EXPECT_EQ(llvm::toString(Direction.takeError()),
            "t.json:2:63: entries.sm_90.metric.direction: expected \"min\" or "
            "\"max\", not \"up\"");
  // A time of 0 was kept against every later run, each "not better".
  for (const char *Value : {"0", "-1"}) {
    auto NoTime = TuningFile::parse(
        std::string(R"({"entries": {"sm_90": {"params": {}, "device": "d",
          "metric": {"name": "time", "value": )") +
            Value + R"(, "direction": "min"}}}})",
        "t.json");
    ASSERT_FALSE(bool(NoTime)) << Value;
    EXPECT_EQ(llvm::toString(NoTime.takeError())
                  .rfind("t.json:2:47: entries.sm_90.metric.value: time ", 0),
              0u);
  }
  auto Syntax = TuningFile::parse("{\n  \"entries\": [\n", "t.json");
  EXPECT_EQ(llvm::toString(Syntax.takeError()).rfind("t.json:3:", 0), 0u);
}

TEST(TuningFileTest, EntriesPerSizeSortBySizeAndReadBack) {
  TuningFile F;
  F.Kernel = "sum";
  for (const char *Key : {"sm_90@1048576", "sm_90a", "sm_90@65536", "sm_80",
                          "sm_90", "sm_90@262144"})
    F.merge(Key, entry("H100", 0.5), false);
  std::string Text = F.print();
  std::vector<size_t> At;
  for (const char *Key :
       {"\"sm_80\"", "\"sm_90\"", "\"sm_90@65536\"", "\"sm_90@262144\"",
        "\"sm_90@1048576\"", "\"sm_90a\""})
    At.push_back(Text.find(Key));
  for (size_t I = 1; I < At.size(); ++I)
    EXPECT_LT(At[I - 1], At[I]) << Text;
  TuningFile Back = llvm::cantFail(TuningFile::parse(Text, "t.json"));
  EXPECT_EQ(Back.print(), Text);
  EXPECT_EQ(Back.Entries.count("sm_90@262144"), 1u);
}

TEST(TuningFileTest, EntryKeysOfSizesAndShapes) {
  EXPECT_EQ(entryKey("sm_90", {}), "sm_90");
  EXPECT_EQ(entryKey("sm_90", {1048576}), "sm_90@1048576");
  EXPECT_EQ(entryKey("sm_90a", {4096, 256}), "sm_90a@4096x256");
  std::string Arch;
  std::vector<int64_t> Size;
  EXPECT_TRUE(parseEntryKey("sm_90a@4096x256", Arch, Size));
  EXPECT_EQ(Arch, "sm_90a");
  EXPECT_EQ(Size, (std::vector<int64_t>{4096, 256}));
  EXPECT_TRUE(parseEntryKey("sm_80", Arch, Size));
  EXPECT_TRUE(Size.empty());
  for (const char *Bad : {"sm_90@", "sm_90@0", "sm_90@12x", "sm_90@-4",
                          "sm_90@1e3", "sm_90@4096y256"})
    EXPECT_FALSE(parseEntryKey(Bad, Arch, Size)) << Bad;
  auto File = TuningFile::parse(
      R"({"kernel": "k", "entries": {"sm_90@4k": {"params": {}}}})", "t.json");
  EXPECT_EQ(
      llvm::toString(File.takeError()),
      "t.json:1:41: entries.sm_90@4k: an entry of a problem size is named "
      "like sm_90@1048576 or sm_90@4096x4096, not 'sm_90@4k'");
}

TEST(TuningFileTest, SizesMergeEachEntryAndKeepTheOthers) {
  TempDir Dir;
  // An old file: one entry per architecture, for every size.
  std::string Path = Dir.write(
      "k.tuning.json",
      R"({"kernel": "k", "entries": {"sm_90": {"params": {"block_size_x": 32, "tile": 1}}}})");
  RunInfo Info;
  Info.Kernel = "k";
  Info.Where.Arch = "sm_90";
  std::vector<std::pair<std::string, TuningEntry>> New{
      {"sm_90@1024", entry("H100", 0.5)},
      {"sm_90@4096", entry("H100", 0.7, 128)}};
  auto U = llvm::cantFail(mergeIntoTuningFile(Path, Info, New, false));
  ASSERT_TRUE(U.Text);
  ASSERT_EQ(U.Merges.size(), 2u);
  EXPECT_EQ(std::get<2>(U.Merges[0]).Outcome, MergeOutcome::Added);
  TuningFile Back = llvm::cantFail(TuningFile::parse(*U.Text, Path));
  EXPECT_EQ(Back.Entries.size(), 3u);
  EXPECT_FALSE(Back.Entries["sm_90"].Measured);
  EXPECT_EQ(Back.Entries["sm_90@4096"].Params["block_size_x"], 128);
  // Nothing better: nothing to write.
  Dir.write("k.tuning.json", *U.Text);
  auto Again = llvm::cantFail(mergeIntoTuningFile(Path, Info, New, false));
  EXPECT_FALSE(Again.Text);
  EXPECT_EQ(std::get<2>(Again.Merges[1]).Outcome, MergeOutcome::KeptRecorded);
}

TEST(TuningFileTest, BestEntryOfAReplay) {
  test::Bowl B = test::bowl();
  TuneOptions O;
  O.Strategy = "brute_force";
  TuneResult Run = llvm::cantFail(runTuning(B.Space, *B.Runner, O));
  RunInfo Info;
  Info.Kernel = "bowl";
  Info.Where = {"sm_86", "Test GPU"};
  Info.Date = "2030-01-01";
  Info.Note = "replayed";
  TuningEntry E = llvm::cantFail(bestEntry(Info, B.Space, Run));
  EXPECT_EQ(E.Params, (llvm::json::Object{{"x", 5}, {"y", 3}, {"z", 0}}));
  EXPECT_EQ(E.Value, 1.0);
  EXPECT_EQ(E.Device, "Test GPU");
  // The day the winner was measured, not the day of the replay.
  EXPECT_EQ(E.Date, "2026-11-23");
  EXPECT_EQ(E.Strategy, "brute_force");
  EXPECT_EQ(E.Evaluations, Run.Trace.size());
  EXPECT_EQ(E.Metacu, metacuVersion());
  EXPECT_EQ(E.Note, "replayed");

  EXPECT_EQ(llvm::toString(bestEntry(Info, B.Space, TuneResult()).takeError()),
            "no valid configuration was found, so there is nothing to record");
}

/// What `tune --tuning-file` does with the merge.
static llvm::Expected<MergeResult> update(llvm::StringRef Path,
                                          const RunInfo &Info,
                                          const TuningEntry &New, bool Force) {
  auto U = mergeIntoTuningFile(Path, Info, {{Info.Where.Arch, New}}, Force);
  if (!U)
    return U.takeError();
  if (U->Text)
    if (llvm::Error E = metacu::writeOutput(Path, *U->Text))
      return std::move(E);
  return std::get<2>(U->Merges.front());
}

TEST(TuningFileTest, UpdateWritesOnlyWhatChangedAndChecksTheKernel) {
  TempDir T;
  std::string Path = T.path("conv.tuning.json");
  RunInfo Info;
  Info.Kernel = "conv";
  Info.Where = {"sm_90", "H100"};
  MergeResult R = llvm::cantFail(update(Path, Info, entry("H100", 0.5), false));
  EXPECT_EQ(R.Outcome, MergeOutcome::Added);
  std::string First = TempDir::read(Path);
  EXPECT_NE(First.find("\"kernel\": \"conv\""), std::string::npos);

  R = llvm::cantFail(update(Path, Info, entry("H100", 0.7), false));
  EXPECT_EQ(R.Outcome, MergeOutcome::KeptRecorded);
  EXPECT_EQ(TempDir::read(Path), First);

  Info.Where.Arch = "sm_80";
  llvm::cantFail(update(Path, Info, entry("H100", 0.7), false));
  TuningFile Both = llvm::cantFail(TuningFile::read(Path));
  EXPECT_EQ(Both.Entries.size(), 2u);
  EXPECT_EQ(Both.Entries["sm_90"].Value, 0.5);

  Info.Kernel = "gemm";
  auto Other = update(Path, Info, entry("H100", 0.1), false);
  EXPECT_EQ(llvm::toString(Other.takeError()),
            Path + " holds the tuning of kernel 'conv', not 'gemm'; --force "
                   "rewrites it for 'gemm'");
  Info.Where.Arch.clear();
  EXPECT_EQ(
      llvm::toString(update(Path, Info, entry("H100", 0.1), true).takeError()),
      "the architecture the results are for is unknown; give --arch");
}

TEST(TuningFileTest, AHandWrittenEntryReadsBackAndAnyResultReplacesIt) {
  const char *Text = R"({
  "kernel": "k",
  "entries": {
    "sm_75": {
      "params": {
        "block_size_x": 32,
        "tile": 2
      },
      "note": "chosen by hand"
    }
  }
}
)";
  TuningFile F = llvm::cantFail(TuningFile::parse(Text, "t.json"));
  EXPECT_FALSE(F.Entries.at("sm_75").Measured);
  EXPECT_EQ(F.print(), Text);
  MergeResult R = F.merge("sm_75", entry("T4", 2.5), false);
  EXPECT_EQ(R.Outcome, MergeOutcome::Replaced);
  EXPECT_EQ(R.describe("sm_75", entry("T4", 2.5)),
            "replaced the sm_75 entry (written by hand, not measured) with "
            "block_size_x=64 tile=2 (2.5000 ms on T4, time)");
  EXPECT_TRUE(F.Entries.at("sm_75").Measured);
  EXPECT_EQ(F.Entries.at("sm_75").Device, "T4");
}

TEST(TuningFileTest, RewritingKeepsTheOtherEntriesValues) {
  // Written by hand or by a later metacu: integers past 2^63 and 2^53 and
  // numbers past a float's range stay as they were.
  const char *Text = R"({
  "kernel": "conv",
  "entries": {
    "sm_90": {
      "params": {
        "big": 9007199254740993,
        "far": 1e+300,
        "huge": 18446744073709551615,
        "neg": -9223372036854775808
      },
      "note": "by hand",
      "extra": 12345678901234567890
    }
  }
}
)";
  TuningFile F = llvm::cantFail(TuningFile::parse(Text, "t.json"));
  EXPECT_EQ(F.print(), Text);

  // A count that is none is an error, not 0 (1e300 made uint64_t 0).
  std::string Huge = R"({"kernel": "conv", "entries": {"sm_90": {"params": {},
    "device": "X", "metric": {"name": "time", "value": 1, "direction": "min"},
    "evaluations": 1e300}}})";
  auto Bad = TuningFile::parse(Huge, "t.json");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "t.json:3:20: entries.sm_90.evaluations: expected a count");
}
