//===- PrintersTest.cpp - The report's JSON fields and text table ---------===//
#include "report/Printers.h"

#include "llvm/Support/JSON.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::report;

namespace {

KernelReport row(std::optional<unsigned> Threads) {
  KernelReport R;
  R.Name = "axpy";
  R.Target = Arch{90, 0};
  R.Resources.Mangled = R.Counts.Mangled = "_Z4axpyfPKfPf";
  R.Resources.Registers = 24;
  R.Resources.SpillStoreBytes = 8;
  R.Resources.SpillLoadBytes = 4;
  R.Resources.StaticSharedBytes = 1024;
  R.Counts.GlobalLoads = {16, 64};
  R.Counts.GlobalStores = {8, 32};
  R.Counts.Flops[unsigned(FpType::F32)] = 16;
  R.Counts.FpInstructions[unsigned(FpType::F32)] = 8;
  R.Counts.Instructions = 40;
  R.Limits = archLimits(90);
  if (Threads) {
    LaunchConfig L;
    L.Block = {*Threads / 8, 8, 1};
    R.Launch = L;
    R.Occ = computeOccupancy(*R.Limits, {24, 1024, 0, std::nullopt}, L);
    R.Model = predict(R.Counts, R.Resources, *R.Occ, *R.Limits, L);
  }
  R.Diagnoses = {"spills 8 bytes"};
  return R;
}

llvm::json::Object firstKernel(const std::vector<KernelReport> &Rows) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printJson(OS, Rows);
  auto V = llvm::json::parse(S);
  EXPECT_TRUE(bool(V)) << S;
  if (!V) {
    llvm::consumeError(V.takeError());
    return {};
  }
  const llvm::json::Object *Top = V->getAsObject();
  EXPECT_EQ(Top->getInteger("version"), 1);
  return *(*Top->getArray("kernels"))[0].getAsObject();
}

TEST(PrintersTest, JsonHasEveryDocumentedFieldTyped) {
  llvm::json::Object K = firstKernel({row(256)});
  EXPECT_EQ(K.getString("name"), "axpy");
  EXPECT_EQ(K.getString("mangled"), "_Z4axpyfPKfPf");
  EXPECT_EQ(K.getInteger("arch"), 90);
  EXPECT_EQ(K.getString("target"), "sm_90");
  EXPECT_EQ(K.getInteger("registers"), 24);
  EXPECT_EQ(K.getInteger("spill_store_bytes"), 8);
  EXPECT_EQ(K.getInteger("spill_load_bytes"), 4);
  EXPECT_EQ(K.getInteger("stack_bytes"), 0);
  EXPECT_EQ(K.getInteger("static_shared_bytes"), 1024);
  EXPECT_EQ(K.getInteger("constant_bytes"), 0);
  EXPECT_TRUE(K.get("max_threads_per_block")->getAsNull());
  const llvm::json::Array *Block = K.getArray("block");
  ASSERT_TRUE(Block);
  EXPECT_EQ((*Block)[0].getAsInteger(), 32);
  EXPECT_EQ((*Block)[1].getAsInteger(), 8);
  EXPECT_EQ(K.getInteger("threads_per_block"), 256);
  EXPECT_EQ(K.getInteger("dynamic_shared_bytes"), 0);
  EXPECT_EQ(K.getInteger("blocks_per_sm"), 8);
  EXPECT_EQ(K.getNumber("occupancy"), 1.0);
  EXPECT_EQ(K.getString("limiter"), "warps");
  const llvm::json::Object *T = K.getObject("per_thread");
  ASSERT_TRUE(T);
  EXPECT_EQ(T->getInteger("global_load_bytes"), 64);
  EXPECT_EQ(T->getInteger("global_store_instructions"), 8);
  EXPECT_EQ(T->getInteger("flops_f32"), 16);
  EXPECT_EQ(T->getBoolean("has_loop"), false);
  EXPECT_GT(*K.getNumber("predicted_time_us"), 0);
  const llvm::json::Object *M = K.getObject("model");
  ASSERT_TRUE(M);
  EXPECT_EQ(M->getString("device"), "H100 SXM5 80GB");
  EXPECT_EQ(M->getBoolean("grid_assumed"), true);
  EXPECT_TRUE(M->getString("bound"));
  EXPECT_TRUE(M->getObject("wave_cycles")->getNumber("dram"));
  EXPECT_EQ((*K.getArray("diagnoses"))[0].getAsString(), "spills 8 bytes");
}

TEST(PrintersTest, UnknownLaunchGivesNulls) {
  llvm::json::Object K = firstKernel({row(std::nullopt)});
  for (const char *Field :
       {"block", "threads_per_block", "dynamic_shared_bytes", "blocks_per_sm",
        "occupancy", "limiter", "predicted_time_us", "model"}) {
    ASSERT_TRUE(K.get(Field)) << Field;
    EXPECT_TRUE(K.get(Field)->getAsNull()) << Field;
  }
  EXPECT_EQ(K.getInteger("registers"), 24);
}

TEST(PrintersTest, TextSaysWhenTheLaunchIsUnknown) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printText(OS, {row(std::nullopt), row(256)});
  EXPECT_NE(S.find("launch configuration unknown"), std::string::npos);
  EXPECT_NE(S.find("axpy (_Z4axpyfPKfPf)"), std::string::npos);
  EXPECT_NE(S.find("32x8"), std::string::npos);
  EXPECT_NE(S.find("sm_90: spills 8 bytes"), std::string::npos);
  std::string Known;
  llvm::raw_string_ostream KOS(Known);
  printText(KOS, {row(256)});
  EXPECT_EQ(Known.find("unknown"), std::string::npos);
}

} // namespace
