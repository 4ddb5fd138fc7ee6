//===- ArchTest.cpp - The --arch list and its preprocessor guards ---------===//
#include "toolchain/Arch.h"
#include "TempDir.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Program.h"
#include <gtest/gtest.h>
#include <optional>

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

TEST(ArchTest, SortsNumerically) {
  EXPECT_EQ(parseOk("120f,90a,80").names(), "sm_80, sm_90a, sm_120f");
  // Numeric, not lexicographic, order.
  EXPECT_EQ(parseOk("120,100,90").names(), "sm_90, sm_100, sm_120");
}

TEST(ArchTest, RejectsVariantsOfOneComputeCapability) {
  // nvvm_arch_t holds compute capabilities: sm_90 and sm_90a would be one
  // value, and meta code could not give them different code.
  for (const char *Spec : {"90,90a", "100f,100a", "90a,90"}) {
    auto L = ArchList::parse(Spec);
    ASSERT_FALSE(bool(L)) << Spec;
    std::string Msg = llvm::toString(L.takeError());
    EXPECT_NE(Msg.find("share compute capability"), std::string::npos) << Msg;
  }
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
TEST(ArchTest, VariantsAreTestedWithTheirFeatureSetMacro) {
  ArchList L = parseOk("80,90a,100f");
  // Bits: host, sm_80, sm_90a, sm_100f.
  EXPECT_EQ(L.guard(0b0010), "defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800");
  EXPECT_EQ(L.guard(0b0100),
            "defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_SPECIFIC__) && "
            "__CUDA_ARCH_SPECIFIC__ == 900)");
  EXPECT_EQ(L.guard(0b1000),
            "defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_FAMILY_SPECIFIC__) "
            "&& __CUDA_ARCH_FAMILY_SPECIFIC__ == 1000)");
  EXPECT_EQ(L.guard(0b0101),
            "!defined(__CUDA_ARCH__) || (defined(__CUDA_ARCH_SPECIFIC__) && "
            "__CUDA_ARCH_SPECIFIC__ == 900)");
}

TEST(ArchTest, ValueIsEachTargetsEnumeratorUnderItsGuardAndZeroOnTheHost) {
  EXPECT_EQ(parseOk("75,90a").valueDefinition(),
            "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750\n"
            "#define __nvvm_arch nvvm_arch_t::sm_75\n"
            "#elif defined(__CUDA_ARCH__) && (defined(__CUDA_ARCH_SPECIFIC__) "
            "&& __CUDA_ARCH_SPECIFIC__ == 900)\n"
            "#define __nvvm_arch nvvm_arch_t::sm_90a\n"
            "#else\n"
            "#define __nvvm_arch nvvm_arch_t{}\n"
            "#endif\n");
  // One target: every device pass that gets past the guard is that one.
  EXPECT_EQ(parseOk("80").valueDefinition(),
            "#if defined(__CUDA_ARCH__)\n"
            "#define __nvvm_arch nvvm_arch_t::sm_80\n"
            "#else\n"
            "#define __nvvm_arch nvvm_arch_t{}\n"
            "#endif\n");
}

TEST(ArchTest, ForeignArchConditionNegatesEveryTarget) {
  EXPECT_EQ(parseOk("75,90").foreignArchCondition(),
            "defined(__CUDA_ARCH__) && !(__CUDA_ARCH__ == 750 || "
            "__CUDA_ARCH__ == 900)");
  EXPECT_EQ(parseOk("80").foreignArchCondition(),
            "defined(__CUDA_ARCH__) && !(__CUDA_ARCH__ == 800)");
}

TEST(ArchTest, RejectsWhatNvccDoesNotCompileFor) {
  EXPECT_NE(parseError("999").find("architecture '999' is not one nvcc 13 "
                                   "compiles for (75, 80, 86"),
            std::string::npos);
  EXPECT_NE(parseError("80,85").find("'85'"), std::string::npos);
  EXPECT_NE(parseError("70").find("older than sm_75"), std::string::npos);
  EXPECT_NE(parseError("80a").find("arch-specific targets from sm_90a"),
            std::string::npos);
  EXPECT_NE(parseError("90f").find("family-specific targets from sm_100f"),
            std::string::npos);
  EXPECT_EQ(parseOk("90a,103f").names(), "sm_90a, sm_103f");
}

TEST(ArchTest, TheTableIsNvccsListOfRealArchitectures) {
  TempDir Tmp;
  std::string Out = Tmp.path("list.txt");
  std::string Nvcc = METACU_CUDA_ROOT "/bin/nvcc";
  llvm::StringRef Argv[] = {Nvcc, "--list-gpu-code"};
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Out, Out};
  ASSERT_EQ(llvm::sys::ExecuteAndWait(Nvcc, Argv, std::nullopt, Redirects), 0);
  std::vector<unsigned> Listed;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  std::string Text = TempDir::read(Out);
  llvm::StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef L : Lines) {
    llvm::StringRef Name = L.trim();
    unsigned CC;
    if (Name.consume_front("sm_") && !Name.getAsInteger(10, CC))
      Listed.push_back(CC);
  }
  llvm::sort(Listed);
  EXPECT_EQ(Listed, std::vector<unsigned>(std::begin(NvccArchitectures),
                                          std::end(NvccArchitectures)));
  EXPECT_EQ(MinSupportedCC, Listed.front());
}

} // namespace
