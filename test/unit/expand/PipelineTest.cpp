//===- PipelineTest.cpp - One input through every stage -------------------===//
#include "expand/Pipeline.h"
#include "Fixture.h"
#include "toolchain/Preambles.h"

#include "llvm/ADT/STLExtras.h"
#include <filesystem>
#include <gtest/gtest.h>

using namespace metacu;

namespace {

ArchList archs(llvm::StringRef Spec) {
  return std::move(*ArchList::parse(Spec));
}

TEST(PipelineTest, ReturnsTheExpansionItsDependenciesAndStageTimes) {
  TestTU TU("#include \"cfg.h\"\n"
            "@meta int n = metacu::load_json(\"n.json\")[\"n\"].as_int();\n"
            "__global__ void k(int *p) { p[0] = @(n * TILE); }\n");
  TU.write("cfg.h", "#pragma once\n#define TILE 4\n");
  TU.write("n.json", "{\"n\": 3}\n");
  std::string Dump;
  llvm::raw_string_ostream DumpOS(Dump);
  PipelineOptions Opts = TestTU::pipelineOptions();
  Opts.DumpGenerator = &DumpOS;
  auto X = expandFile(TU.file(), archs("80"), Opts);
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  EXPECT_NE(X->Text.find("p[0] = 12;"), std::string::npos) << X->Text;
  EXPECT_NE(X->Text.find("#include \"cfg.h\""), std::string::npos);

  // The input as given, then headers and data files.
  ASSERT_FALSE(X->Dependencies.empty());
  EXPECT_EQ(X->Dependencies[0], TU.path("k.cu"));
  EXPECT_TRUE(llvm::is_contained(X->Dependencies, TU.path("cfg.h")));
  EXPECT_TRUE(llvm::is_contained(X->Dependencies, TU.path("n.json")));

  std::vector<std::string> Stages;
  for (const StageTime &T : X->Timings) {
    Stages.push_back(T.Stage.str());
    EXPECT_GE(T.Milliseconds, 0);
    EXPECT_GE(T.CpuMilliseconds, 0);
  }
  // The generator runs in a child process, whose CPU time is execute's.
  EXPECT_GT(X->Timings[4].CpuMilliseconds, 0);
  EXPECT_EQ(Stages,
            (std::vector<std::string>{"scan", "host slice", "untagged helpers",
                                      "lower", "execute", "emit"}));
  EXPECT_NE(Dump.find("//===--- program ---===//"), std::string::npos);
  EXPECT_NE(Dump.find("metacu::load_json"), std::string::npos);
}

TEST(PipelineTest, DialectHeadersAreSplicedExpandedAndDependedOn) {
  TestTU TU("#include \"arch.cuh\"\n"
            "__global__ void k(int *p) { p[0] = f() + @(width); }\n");
  TU.write("arch.cuh", "#pragma once\n"
                       "@meta constexpr int width = 3;\n"
                       "__device__ int f() {\n"
                       "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90)\n"
                       "    return 2;\n"
                       "  return 1;\n"
                       "}\n");
  auto X = expandFile(TU.file(), archs("80,90"), TestTU::pipelineOptions());
  ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
  // The header's code in place, under its name; its meta value reached
  // the input; the input resumes at its own line 2.
  std::string HeaderLine = "#line 3 \"" + TU.path("arch.cuh") + "\"\n";
  size_t H = X->Text.find(HeaderLine);
  EXPECT_NE(H, std::string::npos) << X->Text;
  EXPECT_NE(X->Text.find("__CUDA_ARCH__ == 900", H), std::string::npos);
  EXPECT_EQ(X->Text.find("#include \"arch.cuh\""), std::string::npos);
  EXPECT_EQ(X->Text.find("@meta"), std::string::npos) << X->Text;
  size_t Back = X->Text.find("#line 2 \"" + TU.path("k.cu") + "\"\n");
  EXPECT_GT(Back, H);
  EXPECT_NE(X->Text.find("p[0] = f() + 3;", Back), std::string::npos);

  ASSERT_GE(X->Dependencies.size(), 2u);
  EXPECT_EQ(X->Dependencies[0], TU.path("k.cu"));
  EXPECT_EQ(X->Dependencies[1], TU.path("arch.cuh"));
  // The stages that found the header, the splice, the stages on it.
  ASSERT_GE(X->Timings.size(), 4u);
  EXPECT_EQ(X->Timings[0].Stage, "scan");
  EXPECT_EQ(X->Timings[1].Stage, "host slice");
  EXPECT_EQ(X->Timings[2].Stage, "dialect headers");
  EXPECT_EQ(X->Timings[3].Stage, "scan");
}

/// The one SourceError of \p Err.
std::optional<SourceError> sourceError(llvm::Error Err) {
  std::optional<SourceError> Out;
  llvm::handleAllErrors(
      std::move(Err), [&](const SourceError &E) { Out = E; },
      [&](const llvm::ErrorInfoBase &E) {
        ADD_FAILURE() << "not a SourceError: " << E.message();
      });
  return Out;
}

TEST(PipelineTest, ErrorsInALibraryDialectHeaderArePlacedAtTheUsersLine) {
  TestTU TU("#include <metacu/lib.cuh>\n"
            "@meta int ok = lib_tile<32>();\n"
            "@meta int bad = $use^lib_tile<24>();\n");
  // A runtime include directory of metacu's own headers and a library in
  // the dialect.
  std::string Runtime = TU.path("runtime");
  std::filesystem::copy(METACU_SOURCE_RUNTIME_INCLUDE, Runtime,
                        std::filesystem::copy_options::recursive);
  TU.write("runtime/metacu/lib.cuh",
           "#pragma once\n"
           "@meta template <int N> constexpr int lib_tile() {\n"
           "  static_assert(N % 16 == 0, \"tile must be a multiple of 16\");\n"
           "  return N;\n"
           "}\n");
  PipelineOptions Opts = TestTU::pipelineOptions();
  Opts.RuntimeInclude = Runtime;
  auto X = expandFile(TU.file(), archs("80"), Opts);
  ASSERT_FALSE(bool(X));
  std::optional<SourceError> E = sourceError(X.takeError());
  ASSERT_TRUE(E.has_value());
  // Not inside metacu's header: at the user's use, saying where it failed.
  EXPECT_EQ(E->path(), TU.path("k.cu"));
  EXPECT_EQ(E->where().Line, 3u);
  EXPECT_EQ(E->where().Col, TU.file().lineCol(TU.point("use")).Col);
  EXPECT_NE(E->text().find("tile must be a multiple of 16"), std::string::npos)
      << E->text();
  EXPECT_NE(E->text().find("(in metacu/lib.cuh:3)"), std::string::npos)
      << E->text();
}

TEST(PipelineTest, AnErrorInADialectHeaderSaysWhichIncludeReadIt) {
  TestTU TU("#include <cstddef>\n"
            "\n"
            "#include \"lanes.cuh\"\n"
            "__global__ void k(int *p) { p[0] = @(lanes); }\n");
  TU.write("lanes.cuh",
           "#pragma once\n"
           "@meta int lanes = 4;\n"
           "@meta static_assert(lanes == 8, \"lanes must be 8\");\n");
  auto X = expandFile(TU.file(), archs("80"), TestTU::pipelineOptions());
  ASSERT_FALSE(bool(X));
  std::optional<SourceError> E = sourceError(X.takeError());
  ASSERT_TRUE(E.has_value());
  // At its place in the header, which the input's line 3 reads.
  EXPECT_EQ(E->path(), TU.path("lanes.cuh"));
  EXPECT_EQ(E->where().Line, 3u);
  EXPECT_EQ(E->includedAt(), 3u);
  EXPECT_NE(E->text().find("lanes must be 8"), std::string::npos) << E->text();
}

TEST(PipelineTest, ErrorsOfEveryStageArePlacedInTheFile) {
  struct Case {
    const char *Stage;
    const char *Input;
  } Cases[] = {
      {"scan", "int a;\n$e^@ nonsense\n"},
      {"host slice", "#include $e^\"missing.h\"\n"},
      {"check", "#if __CUDA_ARCH__ >= 800\n$e^@meta int x = 1;\n#endif\n"},
      {"lower", "int a;\n$e^}\n"},
      {"execute", "__global__ void k(int *x) {\n"
                  "  @meta int n = $e^undeclared_thing;\n}\n"},
  };
  for (const Case &C : Cases) {
    TestTU TU(C.Input);
    auto X = expandFile(TU.file(), archs("80"), TestTU::pipelineOptions());
    ASSERT_FALSE(bool(X)) << C.Stage;
    std::optional<SourceError> E = sourceError(X.takeError());
    ASSERT_TRUE(E) << C.Stage;
    LineCol Want = TU.file().lineCol(TU.point("e"));
    EXPECT_EQ(E->path(), TU.path("k.cu")) << C.Stage;
    EXPECT_EQ(E->where().Line, Want.Line) << C.Stage;
    EXPECT_EQ(E->where().Col, Want.Col) << C.Stage;
    // Printable without the file: the source line and a caret come along.
    std::string Printed;
    llvm::raw_string_ostream OS(Printed);
    E->log(OS);
    EXPECT_NE(
        Printed.find("\n" + TU.file().lineText(TU.point("e")).str() + "\n"),
        std::string::npos)
        << C.Stage << ": " << Printed;
  }
}

TEST(PipelineTest, AMissingInputIsAnErrorWithoutAPlace) {
  auto X =
      expandFile("/nonexistent/k.cu", archs("80"), TestTU::pipelineOptions());
  ASSERT_FALSE(bool(X));
  std::string Msg = llvm::toString(X.takeError());
  EXPECT_NE(Msg.find("/nonexistent/k.cu"), std::string::npos) << Msg;
}

/// Every piece of \p M, for comparing two maps.
std::vector<std::string> piecesOf(const OutputMap &M) {
  std::vector<std::string> Out;
  for (const OutputMap::Piece &P : M.pieces())
    Out.push_back(std::to_string(P.OutBegin) + "-" + std::to_string(P.OutEnd) +
                  " " + M.files()[P.At.File] + ":" + std::to_string(P.At.Line) +
                  ":" + std::to_string(P.At.Col) + (P.At.Verbatim ? "" : "g") +
                  " " + std::to_string(P.Passes));
  return Out;
}

TEST(PipelineTest, TheLanguageServersCachesExpandEverySampleAsAFreshRunDoes) {
  // metacu lsp expands a file again on each edit of its meta code, with the
  // interpreter and the command lines' headers kept (KeepInterpreter,
  // Precompiled): what it gets must be what 'metacu expand' writes, for
  // each sample after an edit of its meta code and of another sample.
  llvm::SmallString<256> Samples(METACU_SOURCE_RUNTIME_INCLUDE);
  llvm::sys::path::remove_filename(Samples); // runtime/
  llvm::sys::path::remove_filename(Samples); // the source tree
  llvm::sys::path::append(Samples, "samples");
  std::vector<std::string> Paths;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator D(Samples, EC), End; D != End && !EC;
       D.increment(EC)) {
    llvm::SmallString<256> P(D->path());
    llvm::sys::path::append(P, llvm::sys::path::filename(D->path()) + ".cu");
    if (llvm::sys::fs::exists(P))
      Paths.push_back(std::string(P));
  }
  llvm::sort(Paths);
  ASSERT_GE(Paths.size(), 13u);
  TempDir Cache;
  PipelineOptions Fresh = TestTU::pipelineOptions();
  Fresh.CacheDir = Cache.dir().str();
  Preambles Kept;
  PipelineOptions Cached = Fresh;
  Cached.KeepInterpreter = true;
  Cached.Precompiled = &Kept;
  ArchList Archs = archs("75,80,90");
  // What the samples' meta code prints (the dma plans) is not the test's.
  ::testing::internal::CaptureStderr();
  for (const std::string &Path : Paths) {
    SCOPED_TRACE(Path);
    auto File = SourceFile::load(Path);
    ASSERT_TRUE(bool(File)) << llvm::toString(File.takeError());
    auto Expected = expandFile(*File, Archs, Fresh);
    ASSERT_TRUE(bool(Expected)) << llvm::toString(Expected.takeError());
    // The first meta statement edited (a space after '@meta'), then back:
    // the second expansion from what the first kept.
    std::string Edited = File->text().str();
    size_t Meta = Edited.find("@meta ");
    ASSERT_NE(Meta, std::string::npos);
    Edited.insert(Meta + 5, " ");
    auto First = expandFile(SourceFile(Path, Edited), Archs, Cached);
    ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
    auto X = expandFile(*File, Archs, Cached);
    ASSERT_TRUE(bool(X)) << llvm::toString(X.takeError());
    EXPECT_EQ(X->Text, Expected->Text);
    EXPECT_EQ(X->BodyOffset, Expected->BodyOffset);
    EXPECT_EQ(piecesOf(X->Map), piecesOf(Expected->Map));
    EXPECT_EQ(X->Dependencies, Expected->Dependencies);
  }
  ::testing::internal::GetCapturedStderr();
}

} // namespace
