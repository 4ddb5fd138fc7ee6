//===- ReportTest.cpp - Joining ptxas, PTX, limits and launches -----------===//
#include "report/Report.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::report;

namespace {

std::string ptx(llvm::StringRef Arch) {
  return (".target " + Arch + R"(
.visible .entry _Z1aPf(
	.param .u64 _Z1aPf_param_0
)
{
	ld.global.f32 	%f1, [%rd1];
	ret;
}
.visible .entry _Z1bPf(
	.param .u64 _Z1bPf_param_0
)
.maxntid 128, 1, 1
{
	st.global.f32 	[%rd1], %f1;
	ret;
}
)")
      .str();
}

std::string ptxasLog(llvm::StringRef Arch, unsigned RegsA, unsigned RegsB) {
  std::string S;
  for (auto [Name, Regs] : {std::pair{"_Z1bPf", RegsB}, {"_Z1aPf", RegsA}})
    S += "ptxas info    : Compiling entry function '" + std::string(Name) +
         "' for '" + Arch.str() +
         "'\nptxas info    : Function properties for " + Name +
         "\n    0 bytes stack frame, 0 bytes spill stores, 0 bytes "
         "spill loads\nptxas info    : Used " +
         std::to_string(Regs) + " registers, used 0 barriers\n";
  return S;
}

std::vector<ArchBuild> builds() {
  return {{Arch{75, 0}, ptx("sm_75"), ptxasLog("sm_75", 10, 12)},
          {Arch{90, 0}, ptx("sm_90"), ptxasLog("sm_90", 20, 22)}};
}

TEST(ReportTest, RowsByKernelThenArchitecture) {
  auto Rows = buildReports(builds(), [](llvm::StringRef, const Arch &) {
    return std::optional<LaunchConfig>();
  });
  ASSERT_TRUE(bool(Rows)) << llvm::toString(Rows.takeError());
  ASSERT_EQ(Rows->size(), 4u);
  EXPECT_EQ((*Rows)[0].Name, "a");
  EXPECT_EQ((*Rows)[0].Target.CC, 75u);
  EXPECT_EQ((*Rows)[0].Resources.Registers, 10u);
  EXPECT_EQ((*Rows)[1].Name, "a");
  EXPECT_EQ((*Rows)[1].Target.CC, 90u);
  EXPECT_EQ((*Rows)[1].Resources.Registers, 20u);
  EXPECT_EQ((*Rows)[2].Name, "b");
  EXPECT_EQ((*Rows)[3].Resources.Registers, 22u);
  EXPECT_EQ((*Rows)[3].Counts.MaxThreadsPerBlock, 128u);
  // No launch: no occupancy, no time.
  EXPECT_FALSE((*Rows)[0].Occ);
  EXPECT_FALSE((*Rows)[0].Model);
}

TEST(ReportTest, LaunchesArePerKernel) {
  auto Rows = buildReports(builds(), [](llvm::StringRef Name, const Arch &) {
    LaunchConfig L;
    L.Block = {Name == "a" ? 256u : 512u, 1, 1};
    return std::optional<LaunchConfig>(L);
  });
  ASSERT_TRUE(bool(Rows));
  const KernelReport &A = (*Rows)[1], &B = (*Rows)[3];
  ASSERT_TRUE(A.Occ && A.Model);
  EXPECT_EQ(A.Occ->BlocksPerSM, 8u);
  EXPECT_GT(A.Model->TimeUs, 0);
  // b's __launch_bounds__(128) refuses 512 threads.
  ASSERT_TRUE(B.Occ);
  EXPECT_EQ(B.Occ->Failure, LaunchFailure::LaunchBounds);
  EXPECT_FALSE(B.Model);
  EXPECT_FALSE(B.Diagnoses.empty());
}

TEST(ReportTest, AKernelPtxasDidNotListIsAnError) {
  std::vector<ArchBuild> B = builds();
  B[1].PtxasLog = ptxasLog("sm_90", 1, 1).substr(0, 200);
  auto Rows = buildReports(B, [](llvm::StringRef, const Arch &) {
    return std::optional<LaunchConfig>();
  });
  ASSERT_FALSE(bool(Rows));
  EXPECT_NE(llvm::toString(Rows.takeError()).find("_Z1aPf for sm_90"),
            std::string::npos);
}

} // namespace
