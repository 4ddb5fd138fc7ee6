//===- NvccPassesTest.cpp - The headers nvcc's own passes read ------------===//
#include "expand/NvccPasses.h"
#include "Fixture.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

constexpr llvm::StringLiteral Dialect =
    "#pragma once\n__device__ int f() {\n"
    "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { return 1; }\n"
    "  return 0;\n}\n";

llvm::Error checkPasses(TestTU &TU, llvm::StringRef Archs = "75,80",
                        std::vector<std::string> Args = {}) {
  PipelineOptions Opts = TestTU::pipelineOptions();
  Opts.Flags.Args = std::move(Args);
  auto List = ArchList::parse(Archs);
  EXPECT_TRUE(bool(List));
  NvccPassRuns Passes(TU.file(), TU.scanned(), *List, Opts);
  return checkNvccPasses(Passes);
}

TEST(NvccPassesTest, ADialectHeaderADevicePassReadsIsAnErrorAtItsInclude) {
  TestTU TU("#if __CUDA_ARCH__ >= 800\n$inc^#include \"d.cuh\"\n#endif\n"
            "__global__ void k() {}\n");
  TU.write("d.cuh", Dialect);
  ErrorAt E = errorOf(checkPasses(TU));
  EXPECT_EQ(TU.file().lineStart(E.Offset), TU.point("inc"));
  // The first pass that reads it: sm_80's, not sm_75's.
  EXPECT_NE(E.Message.find("d.cuh' contains meta constructs (at "),
            std::string::npos)
      << E.Message;
  EXPECT_NE(E.Message.find("d.cuh:3:3) and nvcc's device pass for sm_80"),
            std::string::npos)
      << E.Message;
  // No pass for sm_80: none reads it.
  EXPECT_FALSE(bool(checkPasses(TU, "75")));
}

TEST(NvccPassesTest, NoPassReadsWhatNoConditionOfNvccTakes) {
  TestTU TU("#if 0\n#include \"d.cuh\"\n#endif\n"
            "#ifdef USER_OPTION\n#include \"d.cuh\"\n#endif\n");
  TU.write("d.cuh", Dialect);
  EXPECT_FALSE(bool(checkPasses(TU)));
  // With the user's -D, every pass reads it.
  ErrorAt E = errorOf(checkPasses(TU, "80", {"-DUSER_OPTION"}));
  EXPECT_NE(E.Message.find("nvcc's host pass"), std::string::npos) << E.Message;
}

TEST(NvccPassesTest, AnIncludeInAPlainHeaderIsAnErrorThere) {
  TestTU TU("#include \"lib/plain.h\"\n");
  TU.write("lib/plain.h", "#pragma once\n#ifdef __CUDACC__\n"
                          "#include \"d.cuh\"\n#endif\n");
  TU.write("lib/d.cuh", Dialect);
  llvm::Error Err = checkPasses(TU);
  ASSERT_TRUE(bool(Err));
  bool Seen = false;
  llvm::handleAllErrors(std::move(Err), [&](const SourceError &E) {
    Seen = true;
    EXPECT_TRUE(E.path().ends_with("lib/plain.h")) << E.path().str();
    EXPECT_EQ(E.where().Line, 3u);
    EXPECT_NE(E.text().find("/lib/d.cuh' contains meta constructs"),
              std::string::npos)
        << E.text();
    EXPECT_NE(E.text().find("nvcc's host pass"), std::string::npos) << E.text();
    EXPECT_NE(E.text().find("is read from " + TU.file().path().str() + ":1"),
              std::string::npos)
        << E.text();
  });
  EXPECT_TRUE(Seen);
}

TEST(NvccPassesTest, AHeaderNameFromAMacroIsTheOneEachPassDefines) {
  TestTU TU("#ifdef __CUDA_ARCH__\n#define K \"d.cuh\"\n#else\n"
            "#define K \"plain.h\"\n#endif\n$inc^#include K\n");
  TU.write("d.cuh", Dialect);
  TU.write("plain.h", "#pragma once\n");
  ErrorAt E = errorOf(checkPasses(TU));
  EXPECT_EQ(TU.file().lineStart(E.Offset), TU.point("inc"));
  EXPECT_NE(E.Message.find("device pass for sm_75"), std::string::npos)
      << E.Message;
}

TEST(NvccPassesTest, AHeaderItsGuardSkipsWholeIsNoHarm) {
  // As the splice leaves a guarded dialect header: its text in the input,
  // its guard defined there, and an #include of it that a device pass
  // takes.
  TestTU TU("#ifndef D_CUH\n#define D_CUH\n#endif\n"
            "#ifdef __CUDA_ARCH__\n#include \"d.cuh\"\n#endif\n");
  TU.write("d.cuh", "#ifndef D_CUH\n#define D_CUH\n@meta int n = 1;\n"
                    "#endif\n");
  EXPECT_FALSE(bool(checkPasses(TU)));
  // Without the guard defined, the pass reads its meta constructs.
  TestTU Unguarded("#ifdef __CUDA_ARCH__\n#include \"d.cuh\"\n#endif\n");
  Unguarded.write("d.cuh", "#ifndef D_CUH\n#define D_CUH\n"
                           "@meta int n = 1;\n#endif\n");
  EXPECT_NE(errorOf(checkPasses(Unguarded)).Message.find("d.cuh:3:1)"),
            std::string::npos);
}

/// The host slice's ArchConditional after settleArchConditionals.
std::vector<Range> settled(TestTU &TU, llvm::StringRef Archs = "75,80") {
  auto Slice = TU.slice();
  EXPECT_TRUE(bool(Slice));
  if (!Slice) {
    llvm::consumeError(Slice.takeError());
    return {};
  }
  auto List = ArchList::parse(Archs);
  EXPECT_TRUE(bool(List));
  PipelineOptions Opts = TestTU::pipelineOptions();
  NvccPassRuns Passes(TU.file(), TU.scanned(), *List, Opts);
  settleArchConditionals(Passes, *Slice);
  return Slice->ArchConditional;
}

bool holds(const std::vector<Range> &Ranges, unsigned Offset) {
  return llvm::any_of(Ranges,
                      [&](const Range &R) { return R.contains(Offset); });
}

constexpr llvm::StringLiteral StrictMode =
    "#if STRICT && !defined(__CUDA_ARCH__)\nint f(double);\n#else\n"
    "__host__ __device__ int f(float x) {\n"
    "  $meta^if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { return 1; }\n"
    "  return 0;\n}\n#endif\n";

TEST(NvccPassesTest, ABranchEveryPassKeepsIsNotChosenPerArchitecture) {
  std::string Off = "#define STRICT 0\n" + StrictMode.str();
  TestTU TU(Off);
  std::vector<Range> Ranges = settled(TU);
  EXPECT_FALSE(holds(Ranges, TU.point("meta")));
  // The first branch, which every pass skips here, stays the
  // conditional's.
  EXPECT_TRUE(holds(Ranges, unsigned(TU.file().text().find("int f(double)"))));
}

TEST(NvccPassesTest, ABranchOnlyDevicePassesKeepStaysChosenPerArchitecture) {
  // With the strict mode on, the host pass takes the first branch.
  std::string On = "#define STRICT 1\n" + StrictMode.str();
  TestTU TU(On);
  EXPECT_TRUE(holds(settled(TU), TU.point("meta")));
  // So does a branch one device pass skips.
  TestTU Device("__device__ int f() {\n#if __CUDA_ARCH__ >= 800 || 1\n"
                "  $meta^if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) "
                "{ return 1; }\n#endif\n#if __CUDA_ARCH__ >= 800\n"
                "  int late;\n#endif\n  return 0;\n}\n");
  std::vector<Range> Ranges = settled(Device);
  EXPECT_FALSE(holds(Ranges, Device.point("meta")));
  EXPECT_TRUE(holds(Ranges, unsigned(Device.file().text().find("int late"))));
}

TEST(NvccPassesTest, NoPassRunsWhereNoConstructStandsInSuchAConditional) {
  // Every pass keeps the block: run, the passes would take it out of
  // ArchConditional.
  llvm::StringRef Kept = "#if __CUDA_ARCH__ >= 800 || 1\nint a;\n#endif\n";
  TestTU Outside(Kept.str() + "@meta int n = 1;\n");
  EXPECT_FALSE(settled(Outside).empty());
  TestTU Inside("#if __CUDA_ARCH__ >= 800 || 1\n@meta int n = 1;\n#endif\n");
  EXPECT_TRUE(settled(Inside).empty());
}

TEST(NvccPassesTest, BothChecksReadOneRunOfEachPass) {
  // A construct in an architecture conditional, and an #include only
  // device passes take.
  TestTU TU("#ifdef __CUDA_ARCH__\n#include \"dev.h\"\n#endif\n"
            "#if __CUDA_ARCH__ >= 800 || 1\n@meta int n = 1;\n#endif\n");
  TU.write("dev.h", "int dev;\n");
  auto Slice = TU.slice();
  ASSERT_TRUE(bool(Slice)) << llvm::toString(Slice.takeError());
  auto List = ArchList::parse("75,80");
  ASSERT_TRUE(bool(List));
  PipelineOptions Opts = TestTU::pipelineOptions();
  NvccPassRuns Passes(TU.file(), TU.scanned(), *List, Opts);
  settleArchConditionals(Passes, *Slice);
  EXPECT_EQ(Passes.runs(), 3u);
  EXPECT_FALSE(bool(checkNvccPasses(Passes)));
  EXPECT_EQ(Passes.runs(), 3u);
}

} // namespace
