//===- AuditTest.cpp ------------------------------------------------------===//
#include "migrate/Audit.h"
#include "TempDir.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace metacu;

namespace {

uint64_t mask(std::initializer_list<unsigned> Archs) {
  uint64_t M = 0;
  llvm::ArrayRef<unsigned> P = auditPasses();
  for (unsigned A : Archs)
    M |= uint64_t(1) << (llvm::find(P, A) - P.begin());
  return M;
}

uint64_t from(unsigned Arch) {
  uint64_t M = 0;
  llvm::ArrayRef<unsigned> P = auditPasses();
  for (size_t I = 0; I < P.size(); ++I)
    if (P[I] >= Arch && P[I] != 0)
      M |= uint64_t(1) << I;
  return M;
}

TEST(AuditTest, PassesStartWithHostThenSm75) {
  ASSERT_GE(auditPasses().size(), 3u);
  EXPECT_EQ(auditPasses()[0], 0u);
  EXPECT_EQ(auditPasses()[1], 75u);
  EXPECT_EQ(passNames(mask({0, 80})), "host, sm_80");
}

TEST(AuditTest, ThresholdsUseTheFirstArchitectureThatHolds) {
  EXPECT_EQ(codegenCondition(from(80), 0), "(int)__nvvm_arch >= 80");
  EXPECT_EQ(codegenCondition(from(75), 0), "(int)__nvvm_arch != 0");
  EXPECT_EQ(codegenCondition(mask({0}), 0), "(int)__nvvm_arch == 0");
  EXPECT_EQ(codegenCondition(mask({0, 75}), 0), "(int)__nvvm_arch < 80");
}

TEST(AuditTest, EarlierBranchesAreFreeToMatch) {
  // #if >= 900 / #elif >= 800: the second test need not exclude sm_90.
  EXPECT_EQ(codegenCondition(from(80) & ~from(90), from(90)),
            "(int)__nvvm_arch >= 80");
  EXPECT_EQ(codegenCondition(from(80) & ~from(90), 0),
            "(int)__nvvm_arch >= 80 && (int)__nvvm_arch < 90");
  EXPECT_EQ(codegenCondition(mask({86}), 0), "(int)__nvvm_arch == 86");
}

TEST(AuditTest, DisjointSetsBecomeAlternatives) {
  EXPECT_EQ(codegenCondition(mask({0}) | from(90), 0),
            "(int)__nvvm_arch == 0 || (int)__nvvm_arch >= 90");
  EXPECT_EQ(codegenCondition(0, 0), "false");
}

class AuditFileTest : public ::testing::Test {
protected:
  AuditOptions options() {
    AuditOptions O;
    O.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    return O;
  }
  TempDir Tmp;
};

TEST_F(AuditFileTest, ClassifiesAndReportsJson) {
  std::string Path = Tmp.write("k.cu", R"(#define ARCH __CUDA_ARCH__
__device__ int f(int x) {
#if ARCH >= 800
  x += 1;
#endif
  return x;
}
#if __CUDA_ARCH__ >= 900
__device__ int g();
#endif
)");
  auto Audit = auditFile(Path, options());
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  ASSERT_EQ(Audit->size(), 1u);
  const std::vector<Site> &S = Audit->front().Sites;
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(S[0].Kind, SiteKind::MacroAlias);
  EXPECT_EQ(S[1].Category, SiteCategory::Statement);
  EXPECT_EQ(S[1].Line, 3u);
  EXPECT_EQ(S[1].Via, std::vector<std::string>{"ARCH"});
  EXPECT_EQ(S[1].Directives.front().Codegen, "(int)__nvvm_arch >= 80");
  EXPECT_EQ(S[2].Category, SiteCategory::NotConvertible);

  std::string Out;
  llvm::raw_string_ostream OS(Out);
  printAuditJson(OS, *Audit);
  auto J = llvm::json::parse(Out);
  ASSERT_TRUE(static_cast<bool>(J)) << llvm::toString(J.takeError());
  const llvm::json::Object *Root = J->getAsObject();
  EXPECT_EQ(Root->getInteger("version"), 1);
  const llvm::json::Object *Sum = Root->getObject("summary");
  EXPECT_EQ(Sum->getInteger("sites"), 3);
  EXPECT_EQ(Sum->getInteger("statement"), 1);
  const auto *Site1 = (*Root->getArray("files"))[0]
                          .getAsObject()
                          ->getArray("sites")
                          ->front()
                          .getAsObject();
  EXPECT_EQ(Site1->getString("kind"), "macro-alias");
}

TEST_F(AuditFileTest, MissingHeaderIsAnErrorAtTheInclude) {
  std::string Path = Tmp.write("bad.cu", "\n#include \"nope.h\"\n");
  auto Audit = auditFile(Path, options());
  ASSERT_FALSE(static_cast<bool>(Audit));
  std::string Msg = llvm::toString(Audit.takeError());
  EXPECT_NE(Msg.find("bad.cu:2:10: error: 'nope.h' file not found"),
            std::string::npos)
      << Msg;
}

} // namespace
