//===- PresumedLinesTest.cpp - The input's #line directives Clang keeps ---===//
#include "expand/PresumedLines.h"
#include "TempDir.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

class PresumedLinesTest : public ::testing::Test {
protected:
  /// \p Code, written as k.cu and numbered as nvcc's host pass numbers it.
  SourceFile numbered(const std::string &Code) {
    HostSliceOptions Opts;
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    return numberAsPreprocessed(SourceFile(Tmp.write("k.cu", Code), Code),
                                Opts);
  }

  /// The line nvcc gives the first \p Needle of \p F.
  static unsigned lineOf(const SourceFile &F, llvm::StringRef Needle) {
    return F.origin(F.text().find(Needle)).Where.Line;
  }

  TempDir Tmp;
};

TEST_F(PresumedLinesTest, ALineDirectiveCountsOnFromItsNumber) {
  SourceFile F = numbered("int a;\n#line 40\nint c;\nint d;\n");
  EXPECT_EQ(lineOf(F, "int a"), 1u);
  EXPECT_EQ(lineOf(F, "int c"), 40u);
  EXPECT_EQ(lineOf(F, "int d"), 41u);
  EXPECT_EQ(F.origin(F.text().find("int d")).Path, F.path());
  // The text's own lines are still counted as they stand.
  EXPECT_EQ(F.line(F.text().find("int d")), 4u);
  // So does a GNU line marker without a file name.
  EXPECT_EQ(lineOf(numbered("# 7\nint e;\n"), "int e"), 7u);
}

TEST_F(PresumedLinesTest, OnlyTheDirectivesThePreprocessorKeepsCount) {
  SourceFile F = numbered("/* a comment\n#line 40\n*/\n"
                          "const char *s = R\"(\n#line 50\n)\";\n"
                          "#if 0\n#line 60\n#endif\n"
                          "#ifdef __CUDA_ARCH__\n#line 70\n#endif\n"
                          "int here;\n"
                          "#ifdef __CUDACC__\n#line 80\n#endif\n"
                          "int there;\n");
  // None of the first four: the comment, the raw string, '#if 0' and the
  // device passes' branch, which the host pass skips.
  EXPECT_EQ(lineOf(F, "int here"), 13u);
  // nvcc's host pass defines __CUDACC__.
  EXPECT_EQ(lineOf(F, "int there"), 81u);
}

TEST_F(PresumedLinesTest, OneThatNamesAFileKeepsTheFilesOwnLines) {
  SourceFile F = numbered("#line 40 \"x.cu\"\nint c;\n");
  EXPECT_EQ(lineOf(F, "int c"), 2u);
  EXPECT_EQ(F.origin(F.text().find("int c")).Path, F.path());
}

} // namespace
