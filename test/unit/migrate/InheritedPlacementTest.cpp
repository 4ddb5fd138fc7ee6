//===- InheritedPlacementTest.cpp - Nested sites placed without a parse ---===//
#include "migrate/InheritedPlacement.h"
#include "migrate/Audit.h"
#include "migrate/Classify.h"

#include "TempDir.h"
#include "gtest/gtest.h"
#include <string>
#include <vector>

using namespace metacu;

namespace {

/// Device functions that every device pass parses before the host pass:
/// the audit's first parse is a device pass's.
const char *const DeviceSites = R"(#ifdef __CUDA_ARCH__
__device__ inline int lanes() {
#if __CUDA_ARCH__ >= 900
  return 4;
#elif __CUDA_ARCH__ >= 800
  return 2;
#else
  return 1;
#endif
}
#endif
)";

class InheritedPlacementTest : public ::testing::Test {
protected:
  /// Audits k.cu, which includes lib/bits.cuh (outside the tree audited)
  /// holding \p Header after DeviceSites; returns the header's sites by
  /// line, counting the passes parsed in Parsed.
  std::vector<Site> audit(const std::string &Header) {
    Tmp.write("lib/bits.cuh", std::string(DeviceSites) + Header);
    std::string Path = Tmp.write(
        "k.cu", "#include \"lib/bits.cuh\"\n__global__ void k(int *x) { *x "
                "= lanes(); }\n");
    AuditOptions O;
    O.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    O.OnParse = [&](unsigned Pass) { Parsed.push_back(Pass); };
    auto Audit = auditFile(Path, O);
    if (!Audit) {
      ADD_FAILURE() << llvm::toString(Audit.takeError());
      return {};
    }
    if (Audit->size() != 2) {
      ADD_FAILURE() << "no header in the audit";
      return {};
    }
    return (*Audit)[1].Sites;
  }

  /// The site whose #if is on line \p Line of the header given to audit()
  /// (DeviceSites' lines not counted).
  static const Site *at(const std::vector<Site> &Sites, unsigned Line) {
    unsigned Own = llvm::StringRef(DeviceSites).count('\n');
    for (const Site &S : Sites)
      if (S.Line == Own + Line)
        return &S;
    ADD_FAILURE() << "no site at line " << Line;
    return nullptr;
  }

  TempDir Tmp;
  std::vector<unsigned> Parsed;
};

TEST_F(InheritedPlacementTest, ASiteOnlyTheHostReachesInADeviceFunction) {
  // CUTLASS's half.h: the nested test sits in the body of the host-device
  // function around it, in the branch only the host pass compiles; the
  // device pass's parse placed the conditional around it.
  std::vector<Site> Sites =
      audit(R"(__host__ __device__ inline unsigned bits(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return 1u;
#else
  unsigned s = 0;
  if (x < 0) {
    x = -x;
  }
#if defined(__CUDA_ARCH__)
  s = 1;
#else
  s = 2;
#endif
  return s;
#endif
}
)");
  EXPECT_EQ(Parsed.size(), 1u);
  const Site *Nested = at(Sites, 9);
  ASSERT_TRUE(Nested);
  EXPECT_EQ(Nested->Category, SiteCategory::Constant) << Nested->Reason;
}

TEST_F(InheritedPlacementTest, AHostOnlyFunctionIsStillParsed) {
  // Its test is a hazard: only a parse of the host pass finds the nested
  // one in the same host-only body.
  std::vector<Site> Sites = audit(R"(inline unsigned bits(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return 1u;
#else
  unsigned s = 0;
#if defined(__CUDA_ARCH__)
  s = 1;
#else
  s = 2;
#endif
  return s;
#endif
}
)");
  EXPECT_EQ(Parsed.size(), 2u);
  const Site *Nested = at(Sites, 6);
  ASSERT_TRUE(Nested);
  EXPECT_EQ(Nested->Category, SiteCategory::Hazard) << Nested->Reason;
}

TEST_F(InheritedPlacementTest, ASiteInsideABraceTheBranchOpensIsParsed) {
  // A lambda (or a local class) could run elsewhere than the function
  // around it: the site is placed by a parse that reaches it.
  std::vector<Site> Sites =
      audit(R"(__host__ __device__ inline unsigned bits(float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  return 1u;
#else
  auto f = [&]() {
#if defined(__CUDA_ARCH__)
    return 1u;
#else
    return 2u;
#endif
  };
  return f();
#endif
}
)");
  EXPECT_EQ(Parsed.size(), 2u);
  const Site *Nested = at(Sites, 6);
  ASSERT_TRUE(Nested);
  EXPECT_EQ(Nested->Category, SiteCategory::Constant) << Nested->Reason;
}

TEST_F(InheritedPlacementTest, PlacesOnlyWhatNoParsedPassReached) {
  // The facts as the passes leave them: the outer conditional placed in a
  // device function, the nested one reached by the host pass only.
  Facts F;
  const std::string File = "h.cuh";
  F.Buffers[File] = "#ifdef __CUDA_ARCH__\n#else\n{ }\n#ifdef __CUDA_ARCH__\n"
                    "#endif\n#endif\n";
  Group Outer;
  Outer.File = File;
  Outer.Dirs = {1, 22, 60};
  Outer.Mentions = true;
  Outer.Taken = std::vector<int>(NumPasses, 0);
  Outer.Taken[0] = 1;
  Outer.Place = Placement::Statement;
  Outer.Space = HostSpace | DeviceSpace;
  Outer.Function = "f";
  Group Nested;
  Nested.File = File;
  Nested.Dirs = {32, 53};
  Nested.Mentions = true;
  Nested.Parent = FileKey{File, 1};
  Nested.Taken[0] = NoBranch;
  F.Groups[{File, 1}] = Outer;
  F.Groups[{File, 32}] = Nested;
  auto Outside = [](llvm::StringRef) { return false; };
  // A parse of the host pass reached it: that parse placed it.
  EXPECT_EQ(inheritPlacements(F, /*Parsed=*/1, Outside), 0u);
  // A device pass's parse did not.
  EXPECT_EQ(inheritPlacements(F, /*Parsed=*/2, Outside), 1u);
  const Group &G = F.Groups.at({File, 32});
  EXPECT_TRUE(G.Inherited);
  EXPECT_TRUE(inFunctionBody(G.Place));
  EXPECT_EQ(G.Function, "f");
  // The tree's own sites need a parse of their branches' code.
  F.Groups[{File, 32}] = Nested;
  EXPECT_EQ(inheritPlacements(F, 2, [](llvm::StringRef) { return true; }), 0u);
}

TEST_F(InheritedPlacementTest, APlacementIsCarriedThroughNestedConditionals) {
  // The facts as the passes leave them: the outer conditional placed in a
  // device function; inside its '#else', a conditional that is no site,
  // holding a site no parsed pass reached, holding another; and a site
  // after a brace the branch leaves open.
  Facts F;
  const std::string File = "h.cuh";
  const std::vector<std::string> Lines = {
      "#ifdef __CUDA_ARCH__", // 0: placed
      "#else",
      "#if FOO", // 2: no site
      "{ }",
      "#ifdef __CUDA_ARCH__", // 4: from 0, through 2
      "#ifdef __CUDA_ARCH__", // 5: from 4, placed so in the same walk
      "#endif",
      "#endif",
      "#endif",
      "{",
      "#ifdef __CUDA_ARCH__", // 10: after a brace left open
      "#endif",
      "}",
      "#endif"};
  std::vector<unsigned> Dir; // the offset of each line's directive name
  std::string Text;
  for (const std::string &L : Lines) {
    Dir.push_back(Text.size() + 1);
    Text += L + "\n";
  }
  F.Buffers[File] = Text;
  auto Add = [&](std::vector<unsigned> DirLines, std::optional<unsigned> In,
                 bool Mentions) -> Group & {
    Group G;
    G.File = File;
    for (unsigned L : DirLines)
      G.Dirs.push_back(Dir[L]);
    G.Mentions = Mentions;
    if (In)
      G.Parent = FileKey{File, Dir[*In]};
    G.Taken[0] = Mentions ? NoBranch : 0;
    return F.Groups[{File, Dir[DirLines.front()]}] = G;
  };
  Group &Outer = Add({0, 1, 13}, std::nullopt, true);
  Outer.Taken = std::vector<int>(NumPasses, 0);
  Outer.Taken[0] = 1;
  Outer.Place = Placement::Statement;
  Outer.Space = HostSpace | DeviceSpace;
  Outer.Function = "f";
  Add({2, 8}, 0, false);
  Add({4, 7}, 2, true);
  Add({5, 6}, 4, true);
  Add({10, 11}, 0, true);
  ASSERT_FALSE(isSite(F.Groups.at({File, Dir[2]})));
  EXPECT_EQ(
      inheritPlacements(F, /*Parsed=*/2, [](llvm::StringRef) { return false; }),
      2u);
  for (unsigned L : {4u, 5u}) {
    const Group &G = F.Groups.at({File, Dir[L]});
    EXPECT_TRUE(G.Inherited) << "line " << L;
    EXPECT_EQ(G.Function, "f") << "line " << L;
  }
  EXPECT_FALSE(F.Groups.at({File, Dir[10]}).Inherited);
}

} // namespace
