//===- AuditTest.cpp - Auditing a file end to end -------------------------===//
#include "migrate/Audit.h"
#include "AuditFixtures.h"
#include "TempDir.h"
#include "migrate/AuditPrinter.h"
#include "migrate/Classify.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"
#include <optional>
#include <sys/stat.h>

using namespace metacu;

namespace {

class AuditFileTest : public ::testing::Test {
protected:
  AuditOptions options() {
    AuditOptions O;
    O.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    return O;
  }
  /// The sites of \p Text audited as k.cu; none, the failure noted, where
  /// the audit fails.
  std::vector<Site> sitesOf(llvm::StringRef Text) {
    auto Audit = auditFile(Tmp.write("k.cu", Text), options());
    if (!Audit) {
      ADD_FAILURE() << llvm::toString(Audit.takeError());
      return {};
    }
    return Audit->front().Sites;
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
  EXPECT_EQ(S[2].Category, SiteCategory::Declaration);

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

TEST_F(AuditFileTest, AValueMacroUsedInCodeConvertsWithItsUses) {
  std::vector<Site> S = sitesOf(R"(__device__ void report(int);
#define CODE report(__CUDA_ARCH__)
#define STR2(x) #x
#define STR(x) STR2(x)
#define SPELLED __CUDA_ARCH__
__global__ void k(const char **s) {
  CODE;
  *s = STR(SPELLED);
}
)");
  ASSERT_EQ(S.size(), 4u);
  EXPECT_EQ(S[0].Kind, SiteKind::MacroAlias);
  EXPECT_EQ(S[0].Category, SiteCategory::Value);
  EXPECT_EQ(S[0].ValueOffsets,
            std::vector<unsigned>{unsigned(
                llvm::StringRef(R"(__device__ void report(int);
#define CODE report()")
                    .size())});
  EXPECT_EQ(S[1].Category, SiteCategory::NotConvertible); // SPELLED
  EXPECT_EQ(S[2].Category, SiteCategory::Value);          // CODE;
  EXPECT_EQ(S[3].Category, SiteCategory::NotConvertible); // STR(SPELLED)
}

TEST_F(AuditFileTest, AMacroNamingOnlyMacrosConvertedSitesDefineStays) {
  // XGBoost's SPAN_LT over SPAN_CHECK.
  std::vector<Site> S = sitesOf(R"(#if __CUDA_ARCH__ >= 800
#define CHECK(c) ((c) ? 1 : 2)
#else
#define CHECK(c) ((c) ? 3 : 4)
#endif
#define CHECK_LT(a, b) CHECK((a) < (b))
__device__ int f(int a, int b) { return CHECK_LT(a, b); }
)");
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Category, SiteCategory::MacroDefinition);
  EXPECT_EQ(S[1].Kind, SiteKind::MacroAlias);
  EXPECT_EQ(S[1].Category, SiteCategory::MacroDefinition) << S[1].Reason;
}

TEST_F(AuditFileTest, AMacroNamingOneAStayingSiteDefinesStays) {
  // The #include keeps the conditional: CHECK's choice stays there.
  std::vector<Site> S = sitesOf(R"(#if __CUDA_ARCH__ >= 800
#include <cuda_fp16.h>
#define CHECK(c) ((c) ? 1 : 2)
#else
#define CHECK(c) ((c) ? 3 : 4)
#endif
#define CHECK_LT(a, b) CHECK((a) < (b))
__device__ int f(int a, int b) { return CHECK_LT(a, b); }
)");
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[0].Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S[1].Category, SiteCategory::NotConvertible);
  EXPECT_NE(S[1].Reason.find("macro derived from __CUDA_ARCH__"),
            std::string::npos)
      << S[1].Reason;
}

TEST_F(AuditFileTest, PragmasBeforeALoopHoldingTheArchitectureStay) {
  // Each branch would hold the loop, whose __CUDA_ARCH__ migrate rewrites
  // in one place.
  std::vector<Site> S = sitesOf(R"(__global__ void k(int *Out) {
#if __CUDA_ARCH__ >= 800
#pragma unroll 2
#endif
  for (int I = 0; I < Out[1]; ++I)
    Out[I] += __CUDA_ARCH__;
}
)");
  ASSERT_FALSE(S.empty());
  EXPECT_EQ(S[0].Category, SiteCategory::NotConvertible);
  EXPECT_NE(S[0].Reason.find("the statement its pragmas apply to holds "
                             "__CUDA_ARCH__ (line 6)"),
            std::string::npos)
      << S[0].Reason;
}

TEST_F(AuditFileTest, AGuardOfAMacroThePassesDefineUnderTheArchitectureStays) {
  // Every pass defines ALWAYS: only its name could say this build is as
  // here, and expand reads a test of it as chosen per architecture.
  std::string Path =
      Tmp.write("k.cu", R"(#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
#define ALWAYS
#endif
__device__ int f(int x) {
#if (defined(ALWAYS) && __CUDA_ARCH__ >= 800) || defined(OTHER_BUILD)
  x *= 3;
#endif
  return x;
}
)");
  auto Audit = auditFile(Path, options());
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  const std::vector<Site> &S = Audit->front().Sites;
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(S[1].Category, SiteCategory::NotConvertible);
  EXPECT_NE(S[1].Reason.find("'ALWAYS' is a macro defined under a test of "
                             "the architecture"),
            std::string::npos)
      << S[1].Reason;
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

TEST_F(AuditFileTest, AnUnreadableFileIsAnErrorAtItsPath) {
  std::string Path = Tmp.path("absent.cu");
  auto Audit = auditFile(Path, options());
  ASSERT_FALSE(static_cast<bool>(Audit));
  std::string Msg = llvm::toString(Audit.takeError());
  EXPECT_EQ(Msg.find(Path + ": error: cannot read the file: "), 0u) << Msg;
}

TEST_F(AuditFileTest, APipeIsAnErrorAtItsPathNotAWait) {
  std::string Path = Tmp.path("pipe.cu");
  ASSERT_EQ(mkfifo(Path.c_str(), 0600), 0);
  auto Audit = auditFile(Path, options());
  ASSERT_FALSE(static_cast<bool>(Audit));
  std::string Msg = llvm::toString(Audit.takeError());
  EXPECT_EQ(Msg.find(Path + ": error: cannot read the file: not a regular "
                            "file"),
            0u)
      << Msg;
}

TEST_F(AuditFileTest, HeaderSitesFollowTheFileAndStay) {
  Tmp.write("arch.cuh", R"(#pragma once
__device__ inline int lanes() {
#if __CUDA_ARCH__ >= 800
  return 64;
#else
  return 32;
#endif
}
)");
  std::string Path = Tmp.write("k.cu", R"(#include "arch.cuh"
__global__ void k(int *x) { x[0] = lanes(); }
)");
  auto Audit = auditFile(Path, options());
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  ASSERT_EQ(Audit->size(), 2u);
  EXPECT_EQ(Audit->front().Path, Path);
  EXPECT_TRUE(Audit->front().Sites.empty());
  EXPECT_EQ((*Audit)[1].Path, Tmp.path("arch.cuh"));
  ASSERT_EQ((*Audit)[1].Sites.size(), 1u);
  const Site &S = (*Audit)[1].Sites.front();
  EXPECT_EQ(S.Category, SiteCategory::NotConvertible);
  EXPECT_EQ(S.Reason, OutsideTree);
  // A header of the tree migrate is given converts like the file itself.
  AuditOptions O = options();
  std::string Header = Tmp.path("arch.cuh");
  O.InTree = [&](llvm::StringRef P) { return P == Header; };
  Audit = auditFile(Path, O);
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  ASSERT_EQ(Audit->size(), 2u);
  ASSERT_EQ((*Audit)[1].Sites.size(), 1u);
  EXPECT_EQ((*Audit)[1].Sites.front().Category, SiteCategory::Statement);
  EXPECT_EQ((*Audit)[1].Sites.front().Directives[0].Codegen,
            "(int)__nvvm_arch >= 80");
}

TEST_F(AuditFileTest, AHeaderIsPlacedOnceForTheUnitsThatIncludeIt) {
  Tmp.write("arch.cuh", R"(#pragma once
__device__ inline int lanes() {
#if __CUDA_ARCH__ >= 800
  return 64;
#else
  return 32;
#endif
}
)");
  std::string A =
      Tmp.write("a.cu", "#include \"arch.cuh\"\n"
                        "__global__ void a(int *x) { *x = lanes(); }\n");
  std::string B = Tmp.write("b.cu", "#include \"arch.cuh\"\n"
                                    "__global__ void b(int *x) { *x = 2; }\n");
  // Under another macro state, the header's branches differ: no sharing.
  std::string C = Tmp.write("c.cu", "#define __CUDA_ARCH__ 900\n"
                                    "#include \"arch.cuh\"\n");
  AuditOptions O = options();
  O.InTree = [](llvm::StringRef) { return true; };
  O.Placements = std::make_shared<PlacementCache>();
  auto First = auditFile(A, O);
  ASSERT_TRUE(static_cast<bool>(First)) << llvm::toString(First.takeError());
  EXPECT_EQ(O.Placements->hits(), 0u);
  auto Second = auditFile(B, O);
  ASSERT_TRUE(static_cast<bool>(Second)) << llvm::toString(Second.takeError());
  EXPECT_EQ(O.Placements->hits(), 1u);
  ASSERT_EQ(Second->size(), 2u);
  const Site &S = (*Second)[1].Sites.front();
  EXPECT_EQ(S.Category, SiteCategory::Statement);
  EXPECT_EQ(S.Reason, (*First)[1].Sites.front().Reason);
  auto Third = auditFile(C, O);
  ASSERT_TRUE(static_cast<bool>(Third)) << llvm::toString(Third.takeError());
  EXPECT_EQ(O.Placements->hits(), 1u);
}

TEST_F(AuditFileTest, HeadersAreNamedWithoutDotDot) {
  Tmp.write("common/arch.cuh", "#pragma once\n"
                               "__device__ inline int w() {\n"
                               "#ifdef __CUDA_ARCH__\n"
                               "  return 32;\n"
                               "#else\n"
                               "  return 0;\n"
                               "#endif\n"
                               "}\n");
  std::string Path =
      Tmp.write("kernels/k.cu", "#include \"../common/arch.cuh\"\n"
                                "__global__ void k(int *x) {\n"
                                "  x[0] = w();\n"
                                "}\n");
  auto Audit = auditFile(Path, options());
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  ASSERT_EQ(Audit->size(), 2u);
  EXPECT_EQ((*Audit)[1].Path, Tmp.path("common/arch.cuh"));
}

/// The category of the value use on line \p Line of the audited k.cu.
static std::optional<SiteCategory>
valueUseAt(const std::vector<FileAudit> &Audit, unsigned Line) {
  for (const Site &S : Audit.front().Sites)
    if (S.Kind == SiteKind::ValueUse && S.Line == Line)
      return S.Category;
  return std::nullopt;
}

TEST_F(AuditFileTest, ValueUsesConvertWhereMetacuSeesThem) {
  std::string Path = Tmp.write(
      "k.cu", R"(template <int CC> __device__ int pick() { return CC; }
#define CC_OF_HERE __CUDA_ARCH__
__device__ int f() {
#ifdef __CUDA_ARCH__
  constexpr int cc = __CUDA_ARCH__;
  return cc + pick<__CUDA_ARCH__>() + CC_OF_HERE;
#else
  return 0;
#endif
}
#ifdef __CUDA_ARCH__
constexpr int kArch = __CUDA_ARCH__;
#endif
__device__ int arr[] = {1
#ifdef __CUDA_ARCH__
  , __CUDA_ARCH__
#endif
};
__global__ void k(int *x) { x[0] = f(); }
)");
  auto Audit = auditFile(Path, options());
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  // In the #ifdef that becomes 'if codegen': both uses on line 6 too.
  EXPECT_EQ(valueUseAt(*Audit, 5), SiteCategory::Value);
  unsigned OnLine6 = 0;
  for (const Site &S : Audit->front().Sites)
    if (S.Kind == SiteKind::ValueUse && S.Line == 6) {
      ++OnLine6;
      // CC_OF_HERE through its definition, used in code only.
      EXPECT_EQ(S.Category, SiteCategory::Value)
          << S.Column << ": " << S.Reason;
    }
  EXPECT_EQ(OnLine6, 2u); // pick<__CUDA_ARCH__> and CC_OF_HERE
  // Under a namespace-scope #ifdef that becomes 'if codegen' too.
  EXPECT_EQ(valueUseAt(*Audit, 12), SiteCategory::Value);
  // Under one that splits a list entry, which stays: metacu skips it.
  EXPECT_EQ(valueUseAt(*Audit, 16), SiteCategory::NotConvertible);
}

TEST_F(AuditFileTest, AHostDeviceComparisonConverts) {
  std::vector<Site> Sites = sitesOf(R"(__host__ __device__ int w() {
#if __CUDA_ARCH__ >= 700
  return warpSize;
#else
  return 32;
#endif
}
)");
  ASSERT_EQ(Sites.size(), 1u);
  const Site &S = Sites.front();
  EXPECT_EQ(S.Category, SiteCategory::HostDeviceSplit) << S.Reason;
  EXPECT_EQ(S.Directives[0].Codegen, "(int)__nvvm_arch != 0");
}

TEST_F(AuditFileTest, EachBranchIsParsedByAPassThatTakesIt) {
  // Only sm_80 and newer compile the #if branch: a parse of one of them
  // finds the declaration there used after the #endif.
  std::vector<Site> Sites = sitesOf(R"(__device__ int f(int x) {
#if __CUDA_ARCH__ >= 800
  int y = x * 2;
#else
  int y = x;
#endif
  return y;
}
)");
  ASSERT_EQ(Sites.size(), 1u);
  const Site &S = Sites.front();
  EXPECT_EQ(S.Category, SiteCategory::LocalDeclaration);
  EXPECT_NE(S.Reason.find("declares 'y' in 'f', used after the #endif"),
            std::string::npos)
      << S.Reason;
  EXPECT_EQ(S.Directives[0].TakenBy, from(80));
  EXPECT_EQ(S.Directives[1].TakenBy, mask({0, 75}));
}

TEST_F(AuditFileTest, AHeaderOutsideTheTreeIsParsedByOnePass) {
  // Each pass set takes another branch of the header's conditionals. Of a
  // header migrate does not rewrite, one parse says all its category
  // needs (whether a site sits in a host-only function body); of the
  // audited file, every branch set is parsed.
  const char *Code = R"(__device__ inline int width() {
#if __CUDA_ARCH__ >= 900
  return 4;
#elif __CUDA_ARCH__ >= 800
  return 2;
#else
  return 1;
#endif
}
inline int host_width() {
#ifdef __CUDA_ARCH__
  return 0;
#else
  return 1;
#endif
}
)";
  Tmp.write("lib/width.cuh", Code);
  std::string Path = Tmp.write(
      "k.cu", "#include \"lib/width.cuh\"\n__global__ void k(int *x) { *x "
              "= width(); }\n");
  AuditOptions O = options();
  std::vector<unsigned> Parsed;
  O.OnParse = [&](unsigned Pass) { Parsed.push_back(Pass); };
  auto Audit = auditFile(Path, O);
  ASSERT_TRUE(static_cast<bool>(Audit)) << llvm::toString(Audit.takeError());
  EXPECT_EQ(Parsed.size(), 1u);
  ASSERT_EQ(Audit->size(), 2u);
  ASSERT_EQ((*Audit)[1].Sites.size(), 2u);
  EXPECT_EQ((*Audit)[1].Sites[0].Category, SiteCategory::NotConvertible);
  EXPECT_EQ((*Audit)[1].Sites[0].Reason, OutsideTree);
  // The host-only function's test is still found.
  EXPECT_EQ((*Audit)[1].Sites[1].Category, SiteCategory::Hazard)
      << (*Audit)[1].Sites[1].Reason;

  // The same code in the audited file: a parse per branch set.
  std::string Own =
      Tmp.write("own.cu", std::string(Code) + "__global__ void k(int *x) { *x "
                                              "= width(); }\n");
  Parsed.clear();
  auto OwnAudit = auditFile(Own, O);
  ASSERT_TRUE(static_cast<bool>(OwnAudit))
      << llvm::toString(OwnAudit.takeError());
  EXPECT_GE(Parsed.size(), 3u);
}

TEST_F(AuditFileTest, ReadsTheToolkitAsNvccDoes) {
  // libcu++ lives under include/cccl, which only nvcc.profile names.
  std::vector<Site> S = sitesOf(R"(#include <cuda/std/type_traits>
__device__ int f(int x) {
  static_assert(cuda::std::is_integral_v<int>);
#if __CUDA_ARCH__ >= 900
  x += 1;
#endif
  return x;
}
)");
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(S.front().Category, SiteCategory::Statement);
}

} // namespace
