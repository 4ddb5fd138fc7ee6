//===- ArchTest.cpp - The --arch list and its preprocessor guards ---------===//
#include "Arch.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

ArchList parseOk(llvm::StringRef Spec) {
  auto L = ArchList::parse(Spec);
  if (!L) {
    ADD_FAILURE() << "parse(\"" << Spec.str()
                  << "\"): " << llvm::toString(L.takeError());
    return *ArchList::parse("80");
  }
  return std::move(*L);
}

std::string parseError(llvm::StringRef Spec) {
  auto L = ArchList::parse(Spec);
  if (L) {
    ADD_FAILURE() << "parse(\"" << Spec.str() << "\") should fail but gave "
                  << L->names();
    return "";
  }
  return llvm::toString(L.takeError());
}

TEST(ArchTest, ParsesAListAndSortsIt) {
  ArchList L = parseOk("90,75,80");
  ASSERT_EQ(L.archs().size(), 3u);
  EXPECT_EQ(L.archs()[0].CC, 75u);
  EXPECT_EQ(L.archs()[1].CC, 80u);
  EXPECT_EQ(L.archs()[2].CC, 90u);
  EXPECT_EQ(L.names(), "sm_75, sm_80, sm_90");
}

TEST(ArchTest, AcceptsNvccAndCMakeSpellings) {
  EXPECT_EQ(parseOk("sm_80").names(), "sm_80");
  EXPECT_EQ(parseOk("80-real").names(), "sm_80");
  EXPECT_EQ(parseOk("80-virtual").names(), "sm_80");
  EXPECT_EQ(parseOk("compute_86").names(), "sm_86");
  EXPECT_EQ(parseOk(" 75 , 90 ").names(), "sm_75, sm_90");
  EXPECT_EQ(parseOk("sm_90a-real").names(), "sm_90a");
}

TEST(ArchTest, ParsesFeatureSetSuffixes) {
  ArchList L = parseOk("90a,100f");
  ASSERT_EQ(L.archs().size(), 2u);
  EXPECT_EQ(L.archs()[0].CC, 90u);
  EXPECT_EQ(L.archs()[0].Variant, 'a');
  EXPECT_EQ(L.archs()[1].CC, 100u);
  EXPECT_EQ(L.archs()[1].Variant, 'f');
  EXPECT_EQ(L.names(), "sm_90a, sm_100f");
}

TEST(ArchTest, RemovesDuplicatesWrittenDifferently) {
  ArchList L = parseOk("80,sm_80,80-real,75,80");
  EXPECT_EQ(L.names(), "sm_75, sm_80");
}

TEST(ArchTest, SortsPlainBeforeFamilyBeforeArchSpecific) {
  EXPECT_EQ(parseOk("90a,90,90f").names(), "sm_90, sm_90f, sm_90a");
  EXPECT_EQ(parseOk("100a,90a,100,90").names(),
            "sm_90, sm_90a, sm_100, sm_100a");
  // Numeric, not lexicographic, order.
  EXPECT_EQ(parseOk("120,100,90").names(), "sm_90, sm_100, sm_120");
}

TEST(ArchTest, RejectsArchitecturesOlderThanNvccSupports) {
  std::string E = parseError("70");
  EXPECT_NE(E.find("'70'"), std::string::npos) << E;
  EXPECT_NE(E.find("sm_75"), std::string::npos) << E;
  parseError("80,sm_60");
}

TEST(ArchTest, RejectsWhatIsNotAnArchitecture) {
  std::string E = parseError("abc");
  EXPECT_NE(E.find("invalid architecture 'abc'"), std::string::npos) << E;
  parseError("80,9x");
  parseError("90b");
  parseError("a");
  parseError("0");
  parseError("-80");
}

TEST(ArchTest, RejectsAnEmptyList) {
  std::string E = parseError("");
  EXPECT_NE(E.find("at least one"), std::string::npos) << E;
  parseError(",,");
}

TEST(ArchTest, ArchNames) {
  EXPECT_EQ((Arch{75, 0}).name(), "sm_75");
  EXPECT_EQ((Arch{90, 'a'}).name(), "sm_90a");
  EXPECT_EQ((Arch{100, 'f'}).name(), "sm_100f");
}

TEST(ArchTest, EnumDefinitionHasOneAscendingEnumeratorPerTarget) {
  EXPECT_EQ(parseOk("90,75").enumDefinition(),
            "enum class nvvm_arch_t { sm_75 = 75, sm_90 = 90 };");
  EXPECT_EQ(parseOk("80").enumDefinition(),
            "enum class nvvm_arch_t { sm_80 = 80 };");
}

TEST(ArchTest, AllPassesHasTheHostBitAndOneBitPerTarget) {
  EXPECT_EQ(parseOk("80").allPasses(), 0b11u);
  EXPECT_EQ(parseOk("75,80,90").allPasses(), 0b1111u);
}

// Bit 0 is the host pass, bit 1 sm_75, bit 2 sm_80, bit 3 sm_90.
TEST(ArchTest, GuardSelectsExactlyTheMaskedPasses) {
  ArchList L = parseOk("75,80,90");
  EXPECT_EQ(L.guard(0b0001), "!defined(__CUDA_ARCH__)");
  EXPECT_EQ(L.guard(0b0100), "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800");
  EXPECT_EQ(L.guard(0b1010), "defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 750 "
                             "|| __CUDA_ARCH__ == 900)");
  EXPECT_EQ(L.guard(0b1110), "defined(__CUDA_ARCH__)");
  EXPECT_EQ(L.guard(0b0101), "!defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800");
  EXPECT_EQ(L.guard(0b1011), "!defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 750 "
                             "|| __CUDA_ARCH__ == 900");
  EXPECT_EQ(L.guard(0b0000), "0");
}

TEST(ArchTest, GuardForEveryPassIsEmpty) {
  ArchList L = parseOk("75,80,90");
  EXPECT_EQ(L.guard(L.allPasses()), "");
  // Bits beyond the targets are ignored.
  EXPECT_EQ(L.guard(~uint64_t(0)), "");
  EXPECT_EQ(L.guard(0b110000 | 0b0100),
            "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800");
}

TEST(ArchTest, GuardWithOneTargetSaysDeviceOrHost) {
  ArchList L = parseOk("80");
  EXPECT_EQ(L.guard(0b10), "defined(__CUDA_ARCH__)");
  EXPECT_EQ(L.guard(0b01), "!defined(__CUDA_ARCH__)");
  EXPECT_EQ(L.guard(0b11), "");
}

// nvcc defines __CUDA_ARCH__ == 900 for sm_90, sm_90f and sm_90a; sm_90a
// also defines __CUDA_ARCH_SPECIFIC__ and __CUDA_ARCH_FAMILY_SPECIFIC__,
// sm_90f only the latter.
TEST(ArchTest, PlainTargetExcludesFeatureSetVariantsOfTheSameArch) {
  ArchList L = parseOk("90,90a");
  // Bit 1 is sm_90, bit 2 sm_90a.
  EXPECT_EQ(L.guard(0b010), "defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 900 "
                            "&& !defined(__CUDA_ARCH_FAMILY_SPECIFIC__))");
  EXPECT_EQ(L.guard(0b100),
            "defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_SPECIFIC__) && "
            "__CUDA_ARCH_SPECIFIC__ == 900)");
}

TEST(ArchTest, FamilyTargetExcludesArchSpecificOnlyWhenBothAreListed) {
  ArchList F = parseOk("100f");
  EXPECT_EQ(F.guard(0b10), "defined(__CUDA_ARCH__)");
  EXPECT_EQ(F.foreignArchCondition(),
            "defined(__CUDA_ARCH__) && !((defined(__CUDA_ARCH_FAMILY_SPECIFIC__)"
            " && __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000))");
  ArchList FA = parseOk("100f,100a");
  EXPECT_EQ(FA.guard(0b010),
            "defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) "
            "&& __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000 && "
            "!defined(__CUDA_ARCH_SPECIFIC__))");
}

TEST(ArchTest, PlainTargetStaysSimpleWhenOnlyOtherArchsHaveVariants) {
  ArchList L = parseOk("80,90a");
  EXPECT_EQ(L.guard(0b010), "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800");
}

TEST(ArchTest, HostPlusVariantKeepsTheVariantTestParenthesized) {
  ArchList L = parseOk("80,90,90a");
  // Bits: host, sm_80, sm_90, sm_90a.
  EXPECT_EQ(L.guard(0b0101), "!defined(__CUDA_ARCH__) || (__CUDA_ARCH__ == 900 "
                             "&& !defined(__CUDA_ARCH_FAMILY_SPECIFIC__))");
}

TEST(ArchTest, ForeignArchConditionNegatesEveryTarget) {
  EXPECT_EQ(parseOk("75,90").foreignArchCondition(),
            "defined(__CUDA_ARCH__) && !(__CUDA_ARCH__ == 750 || "
            "__CUDA_ARCH__ == 900)");
  EXPECT_EQ(parseOk("80").foreignArchCondition(),
            "defined(__CUDA_ARCH__) && !(__CUDA_ARCH__ == 800)");
}

} // namespace
