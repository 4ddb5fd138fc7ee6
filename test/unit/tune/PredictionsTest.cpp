//===- PredictionsTest.cpp - Reading and writing predictions files -------===//
#include "tune/Predictions.h"
#include "TuneTestData.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;
namespace json = llvm::json;

static llvm::Expected<Predictions> parse(llvm::StringRef Text,
                                         const SearchSpace &S) {
  return Predictions::fromJSON(llvm::cantFail(json::parse(Text)), S, "p.json");
}

TEST(PredictionsTest, ReadsEachRecordIntoItsConfiguration) {
  test::Bowl B = test::bowl();
  auto P = parse(R"({"configurations": [
    {"params": {"x": 5, "y": 3, "z": 0}, "registers": 40,
     "spill_store_bytes": 0, "spill_load_bytes": 8, "blocks_per_sm": 3,
     "limiter": "registers", "predicted_time_us": 12.5},
    {"params": {"x": 1, "y": 1, "z": 1}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 0, "predicted_time_us": null},
    {"params": {"x": 2, "y": 2, "z": 0}, "error": "does not build"},
    {"params": {"x": 8, "y": 8, "z": 0}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 1, "predicted_time_us": 1},
    {"params": {"x": 9, "y": 1, "z": 0}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 1, "predicted_time_us": 1}]})",
                 B.Space);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  // x=8 y=8 is not recorded (restricted) and x=9 is no value: skipped.
  EXPECT_EQ(P->known(), 3u);
  const auto &Best = P->of(B.optimum());
  ASSERT_TRUE(Best);
  EXPECT_EQ(Best->BlocksPerSM, 3u);
  EXPECT_EQ(Best->SpillLoadBytes, 8u);
  EXPECT_EQ(*Best->TimeUs, 12.5);
  EXPECT_FALSE(Best->promising()); // it spills
  const auto &NoLaunch = P->of(B.index(1, 1, 1));
  ASSERT_TRUE(NoLaunch);
  EXPECT_FALSE(NoLaunch->TimeUs);
  EXPECT_FALSE(NoLaunch->promising());
  const auto &NoBuild = P->of(B.index(2, 2, 0));
  ASSERT_TRUE(NoBuild);
  EXPECT_FALSE(NoBuild->Builds);
  EXPECT_FALSE(P->of(B.index(3, 3, 0)));
}

TEST(PredictionsTest, ErrorsNameTheFileAndTheRecord) {
  test::Bowl B = test::bowl();
  auto Missing = parse(R"({"configurations": [
    {"params": {"x": 5, "y": 3, "z": 0}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 3, "predicted_time_us": 1},
    {"params": {"x": 5, "z": 0}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 3, "predicted_time_us": 1}]})",
                       B.Space);
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(llvm::toString(Missing.takeError()),
            "p.json: configurations[1].params: no value of parameter 'y'");
  auto NoCount = parse(R"({"configurations": [
    {"params": {"x": 5, "y": 3, "z": 0}, "spill_store_bytes": -1,
     "spill_load_bytes": 0, "blocks_per_sm": 3, "predicted_time_us": 1}]})",
                       B.Space);
  ASSERT_FALSE(bool(NoCount));
  EXPECT_EQ(llvm::toString(NoCount.takeError()),
            "p.json: configurations[0].spill_store_bytes: expected uint64_t");
  std::string M;

  auto BadTime = parse(R"({"configurations": [
    {"params": {"x": 5, "y": 3, "z": 0}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 3, "predicted_time_us": -2}]})",
                       B.Space);
  ASSERT_FALSE(bool(BadTime));
  M = llvm::toString(BadTime.takeError());
  EXPECT_NE(M.find("configurations[0].predicted_time_us"), std::string::npos)
      << M;

  EXPECT_FALSE(bool(parse(R"({"kernels": []})", B.Space)));
}

TEST(PredictionsTest, AFileForAnotherKernelOrTargetIsRefusedAtItsField) {
  // Read without a word, another kernel's predictions rank this space by
  // times that are not its own.
  test::Bowl B = test::bowl();
  std::string Records = R"("configurations": [
    {"params": {"x": 5, "y": 3, "z": 0}, "spill_store_bytes": 0,
     "spill_load_bytes": 0, "blocks_per_sm": 3, "predicted_time_us": 1}])";
  auto Read = [&](const std::string &Header, const PredictionsFor &For) {
    return Predictions::fromJSON(
        llvm::cantFail(json::parse("{" + Header + Records + "}")), B.Space,
        "p.json", For);
  };
  std::string Header =
      R"("kernel": "bowl", "arch": "sm_90", "image": "compute_80",)";
  EXPECT_TRUE(bool(Read(Header, {"bowl", "sm_90", "compute_80"})));
  // A replay knows the kernel only.
  EXPECT_TRUE(bool(Read(Header, {"bowl", "", ""})));
  struct Case {
    PredictionsFor For;
    std::string Header, Error;
  };
  for (const Case &C :
       {Case{{"stencil", "", ""},
             Header,
             "p.json: kernel: predictions for kernel 'bowl', but this run "
             "tunes 'stencil'"},
        Case{{"bowl", "sm_80", ""},
             Header,
             "p.json: arch: predictions for architecture 'sm_90', but this "
             "run tunes 'sm_80'"},
        Case{{"bowl", "sm_90", "sm_90"},
             Header,
             "p.json: image: predictions for image 'compute_80', but this "
             "run tunes 'sm_90'"},
        Case{{"bowl", "", ""},
             "",
             "p.json: kernel: missing: the kernel the predictions were made "
             "for"},
        Case{{"bowl", "", ""},
             R"("kernel": 3,)",
             "p.json: kernel: expected a string"}}) {
    auto P = Read(C.Header, C.For);
    ASSERT_FALSE(bool(P)) << C.Error;
    EXPECT_EQ(llvm::toString(P.takeError()), C.Error);
  }
}

TEST(PredictionsTest, WhatItWritesReadsBack) {
  test::Bowl B = test::bowl();
  Predictions P(B.Space.size());
  Predicted A;
  A.BlocksPerSM = 2;
  A.SpillStoreBytes = 4;
  A.TimeUs = 3.25;
  P.set(B.optimum(), A);
  Predicted NoBuild;
  NoBuild.Builds = false;
  P.set(B.index(1, 2, 1), NoBuild);
  Predicted NoLaunch;
  P.set(B.index(2, 2, 1), NoLaunch);
  json::Value V = P.toJSON(B.Space, json::Object{{"kernel", "bowl"}});
  EXPECT_EQ(V.getAsObject()->getString("kernel"), "bowl");
  auto Back = Predictions::fromJSON(V, B.Space, "back.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_EQ(Back->known(), 3u);
  EXPECT_EQ(Back->of(B.optimum())->SpillStoreBytes, 4u);
  EXPECT_EQ(*Back->of(B.optimum())->TimeUs, 3.25);
  EXPECT_FALSE(Back->of(B.index(1, 2, 1))->Builds);
  EXPECT_TRUE(Back->of(B.index(2, 2, 1))->Builds);
  EXPECT_FALSE(Back->of(B.index(2, 2, 1))->TimeUs);
}

TEST(PredictionsTest, WritesWhatAPredictionWasMadeOf) {
  test::Bowl B = test::bowl();
  Predictions P(B.Space.size());
  Predicted A;
  A.BlocksPerSM = 2;
  A.TimeUs = 3.25;
  A.From = Predicted::Source{"bowl_tune_7", 40, {32, 8, 1}, 512};
  P.set(B.optimum(), A);
  Predicted Bare; // as read from a file, which need not say
  Bare.BlocksPerSM = 1;
  P.set(B.index(1, 2, 1), Bare);
  json::Value V = P.toJSON(B.Space, json::Object{});
  const json::Array &Records = *V.getAsObject()->getArray("configurations");
  ASSERT_EQ(Records.size(), 2u);
  const json::Object *Made = nullptr, *Unsaid = nullptr;
  for (const json::Value &R : Records)
    (R.getAsObject()->getInteger("blocks_per_sm") == 2 ? Made : Unsaid) =
        R.getAsObject();
  ASSERT_TRUE(Made && Unsaid);
  EXPECT_EQ(Made->getString("mangled"), "bowl_tune_7");
  EXPECT_EQ(Made->getInteger("registers"), 40);
  EXPECT_EQ(*Made->get("block"), json::Value(json::Array{32, 8, 1}));
  EXPECT_EQ(Made->getInteger("dynamic_shared_bytes"), 512);
  EXPECT_FALSE(Unsaid->get("mangled"));
  EXPECT_FALSE(Unsaid->get("registers"));
  // Reading ignores them: the strategy needs none.
  auto Back = Predictions::fromJSON(V, B.Space, "back.json");
  ASSERT_TRUE(bool(Back)) << llvm::toString(Back.takeError());
  EXPECT_FALSE(Back->of(B.optimum())->From);
}
