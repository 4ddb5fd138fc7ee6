//===- PassesTest.cpp - Pass sets and their 'if codegen' conditions -------===//
#include "migrate/Passes.h"
#include "AuditFixtures.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

TEST(PassesTest, PassesStartWithHostThenSm75) {
  ASSERT_GE(auditPasses().size(), 3u);
  EXPECT_EQ(auditPasses()[0], 0u);
  EXPECT_EQ(auditPasses()[1], 75u);
  EXPECT_EQ(passNames(mask({0, 80})), "host, sm_80");
}

TEST(PassesTest, ThresholdsUseTheFirstArchitectureThatHolds) {
  EXPECT_EQ(codegenCondition(from(80), 0), "(int)__nvvm_arch >= 80");
  EXPECT_EQ(codegenCondition(from(75), 0), "(int)__nvvm_arch != 0");
  EXPECT_EQ(codegenCondition(mask({0}), 0), "(int)__nvvm_arch == 0");
  EXPECT_EQ(codegenCondition(mask({0, 75}), 0), "(int)__nvvm_arch < 80");
}

TEST(PassesTest, EarlierBranchesAreFreeToMatch) {
  // #if >= 900 / #elif >= 800: the second test need not exclude sm_90.
  EXPECT_EQ(codegenCondition(from(80) & ~from(90), from(90)),
            "(int)__nvvm_arch >= 80");
  EXPECT_EQ(codegenCondition(from(80) & ~from(90), 0),
            "(int)__nvvm_arch >= 80 && (int)__nvvm_arch < 90");
  EXPECT_EQ(codegenCondition(mask({86}), 0), "(int)__nvvm_arch == 86");
}

TEST(PassesTest, DisjointSetsBecomeAlternatives) {
  EXPECT_EQ(codegenCondition(mask({0}) | from(90), 0),
            "(int)__nvvm_arch == 0 || (int)__nvvm_arch >= 90");
  EXPECT_EQ(codegenCondition(0, 0), "false");
}

TEST(PassesTest, OnePassPerArchitectureNvccCompilesFor) {
  ASSERT_EQ(auditPasses().size(), std::size(NvccArchitectures) + 1);
  for (size_t I = 0; I < std::size(NvccArchitectures); ++I)
    EXPECT_EQ(auditPasses()[I + 1], NvccArchitectures[I]);
  EXPECT_EQ(passName(0), "host");
  EXPECT_EQ(passName(passIndex(88)), "sm_88");
  EXPECT_EQ(AllPasses, (uint64_t(1) << auditPasses().size()) - 1);
}

TEST(PassesTest, EveryPassIsTrueAndTheHostAloneIsZero) {
  EXPECT_EQ(codegenCondition(AllPasses, 0), "true");
  // Where no device pass gets, any condition that holds for the host will do.
  EXPECT_EQ(codegenCondition(mask({0}), from(75)), "true");
  // Free passes extend a run only where that drops a bound.
  EXPECT_EQ(codegenCondition(mask({75}), mask({0})), "(int)__nvvm_arch < 80");
  EXPECT_EQ(codegenCondition(mask({75}), 0), "(int)__nvvm_arch == 75");
}

TEST(PassesTest, RangesInsideAlternativesAreParenthesized) {
  EXPECT_EQ(codegenCondition(mask({0}) | (from(80) & ~from(90)), 0),
            "(int)__nvvm_arch == 0 || ((int)__nvvm_arch >= 80 && "
            "(int)__nvvm_arch < 90)");
}

} // namespace
