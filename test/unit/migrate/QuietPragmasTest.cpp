//===- QuietPragmasTest.cpp - Pragma operators a pass may skip ------------===//
#include "migrate/QuietPragmas.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "gtest/gtest.h"

using namespace metacu;

namespace {

class QuietPragmasTest : public ::testing::Test {
protected:
  bool quiet(llvm::StringRef Text) { return isQuietPragma(Text, *IDs); }
  llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs> IDs =
      llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>();
};

TEST_F(QuietPragmasTest, TheToolkitsDeprecationSilencersAreQuiet) {
  // vector_types.h's __NV_SILENCE_DEPRECATION_BEGIN and _END.
  for (llvm::StringRef P :
       {"nv_diagnostic push", "nv_diag_suppress 20199", "nv_diag_suppress 1444",
        "GCC diagnostic push",
        "GCC diagnostic ignored \"-Wdeprecated-declarations\"",
        "GCC diagnostic pop", "nv_diagnostic pop", "unroll 4"})
    EXPECT_TRUE(quiet(P)) << P.str();
}

TEST_F(QuietPragmasTest, NvccsOtherPragmasAreQuiet) {
  // The CUDA C++ Programming Guide's ABI pragma and cudafe++'s remark
  // mapping, which Clang does not know either.
  for (llvm::StringRef P :
       {"nv_abi preserve_n_data(16) preserve_n_control(8)",
        "nv_diag_remark 177", "nv_exec_check_disable", "nv_diag_once 20012"})
    EXPECT_TRUE(quiet(P)) << P.str();
}

TEST_F(QuietPragmasTest, APragmasOwnWarningIsQuiet) {
  // CCCL's deprecation of old compilers; every pass runs with -w.
  for (llvm::StringRef P : {"GCC warning \"GCC 7.0\"",
                            "message(\"old compiler\")", "message \"old\""})
    EXPECT_TRUE(quiet(P)) << P.str();
  EXPECT_FALSE(quiet("GCC error \"unsupported\""));
}

TEST_F(QuietPragmasTest, APushOrPopNamesTheMacroItSaves) {
  EXPECT_EQ(pushedOrPoppedMacro("push_macro(\"min\")"), "min");
  EXPECT_EQ(pushedOrPoppedMacro("pop_macro( \"max\" )"), "max");
  EXPECT_EQ(pushedOrPoppedMacro("push_macro(min)"), std::nullopt);
  EXPECT_EQ(pushedOrPoppedMacro("once"), std::nullopt);
}

TEST_F(QuietPragmasTest, AnIgnoredMappingOnlySilences) {
  EXPECT_TRUE(onlySilences("clang diagnostic ignored \x01"));
  EXPECT_TRUE(onlySilences("GCC diagnostic ignored \"-Wundef\""));
  EXPECT_FALSE(onlySilences("GCC diagnostic error \"-Wundef\""));
  EXPECT_FALSE(onlySilences("GCC diagnostic ignored"));
}

TEST_F(QuietPragmasTest, APragmaThatCanChangeWhatThePassRecordsIsNot) {
  for (llvm::StringRef P :
       {"push_macro(\"FAST\")", "pop_macro(\"FAST\")", "once", "GCC poison x",
        "GCC system_header", "clang system_header",
        // -Wundef holds the preprocessor's warning for an undefined name
        // in #if: as an error it would stop the pass.
        "GCC diagnostic error \"-Wundef\"",
        "clang diagnostic ignored \"-Wundef\"", "GCC diagnostic ignored Wundef",
        "", "GCC diagnostic"})
    EXPECT_FALSE(quiet(P)) << P.str();
}

} // namespace
