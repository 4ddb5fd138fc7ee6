//===- MetaMacrosTest.cpp - Macros with meta code expanded at their uses --===//
#include "expand/MetaMacros.h"
#include "TempDir.h"
#include "expand/MetaNames.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

class MetaMacrosTest : public ::testing::Test {
protected:
  /// One round of expansion of \p Code, written as k.cu; the text before
  /// when nothing was expanded.
  std::string expandOnce(std::string Code, std::vector<std::string> Args = {},
                         ExpandedMacros *Out = nullptr) {
    SourceFile File(Tmp.write("k.cu", Code), Code);
    auto Scan = scan(File);
    if (!Scan) {
      ADD_FAILURE() << llvm::toString(Scan.takeError());
      return "";
    }
    HostSliceOptions Opts;
    Opts.Flags.Args = std::move(Args);
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    auto R = expandMetaMacros(File, *Scan, declaredMetaNames(*Scan), Opts);
    if (!R) {
      ADD_FAILURE() << llvm::toString(R.takeError());
      return "";
    }
    if (!*R)
      return Code;
    std::string Text = (*R)->Text.text().str();
    if (Out)
      *Out = std::move(**R);
    return Text;
  }

  static bool mayDefine(std::string Code) {
    SourceFile File("k.cu", Code);
    auto Scan = scan(File);
    EXPECT_TRUE(bool(Scan));
    return Scan && mayDefineMetaMacros(*Scan, declaredMetaNames(*Scan));
  }

  TempDir Tmp;
};

TEST_F(MetaMacrosTest, OnlyDefinesWithMetaCodeOrMetaNamesAreCandidates) {
  EXPECT_FALSE(mayDefine("#define N 4\n#define F(x) ((x) + N)\n"));
  EXPECT_TRUE(mayDefine("#define D(s) if codegen (true) { s; }\n"));
  EXPECT_TRUE(mayDefine("#define S(i) @(i)\n"));
  EXPECT_TRUE(mayDefine("@meta int w = 2;\n#define F(x) ((x) * w)\n"));
  // Through another macro.
  EXPECT_TRUE(
      mayDefine("@meta int w = 2;\n#define G(x) F(x)\n#define F(x) (x * w)\n"));
  // A parameter named like a meta variable is no use of it... but the
  // token test cannot tell; the preprocessor's reading does (below).
  EXPECT_TRUE(mayDefine("@meta int w = 2;\n#define F(w) (w)\n"));
}

TEST_F(MetaMacrosTest, MetaMacroIsExpandedAtItsUseAndItsDefineBlanked) {
  ExpandedMacros E{SourceFile("", ""), {}};
  std::string Out = expandOnce("#define ALL(s) if codegen (true) { s; }\n"
                               "void f(int *p) { ALL(p[0] = 1); }\n",
                               {}, &E);
  EXPECT_EQ(Out, "\nvoid f(int *p) { if codegen (true) { p[0] = 1; }; }\n");
  ASSERT_EQ(E.Uses.size(), 2u);
  EXPECT_EQ(E.Uses[1].Name, "ALL");
  EXPECT_EQ(E.Uses[1].Definition, 8u);
  // A byte of the expansion maps to the use; bytes after it move back.
  unsigned In = Out.find("p[0]");
  EXPECT_EQ(E.offsetBefore(In),
            std::string("#define ALL(s) if codegen (true) { s; }\n"
                        "void f(int *p) { ")
                .size());
  EXPECT_EQ(E.useAt(In), &E.Uses[1]);
  EXPECT_EQ(E.offsetBefore(Out.size() - 1),
            std::string("#define ALL(s) if codegen (true) { s; }\n"
                        "void f(int *p) { ALL(p[0] = 1); }")
                .size());
}

TEST_F(MetaMacrosTest, PreprocessorDecidesWhichDefinitionAndWhichUses) {
  // '#undef' ends the macro; a skipped region is never read; a use in a
  // directive stays; the user's -D chooses the definition.
  std::string Out = expandOnce("@meta int w = 2;\n"
                               "#ifdef WIDE\n#define F(x) (x * w)\n"
                               "#else\n#define F(x) (x)\n#endif\n"
                               "int a = F(1);\n#undef F\nint b = F(2);\n"
                               "#if 0\n#define F(x) (x * w)\nint c = F(3);\n"
                               "#endif\n",
                               {"-DWIDE"});
  EXPECT_NE(Out.find("int a = (1 * w);"), std::string::npos) << Out;
  EXPECT_NE(Out.find("int b = F(2);"), std::string::npos) << Out;
  EXPECT_NE(Out.find("int c = F(3);"), std::string::npos) << Out;
  EXPECT_EQ(expandOnce("@meta int w = 2;\n#define F(x) (x * w)\n"
                       "int a = 1;\n"),
            "@meta int w = 2;\n#define F(x) (x * w)\nint a = 1;\n");
}

TEST_F(MetaMacrosTest, ParameterNamedLikeAMetaVariableIsNoUseOfIt) {
  std::string Code = "@meta int w = 2;\n#define F(w) (w + 1)\nint a = F(3);\n";
  EXPECT_EQ(expandOnce(Code), Code);
}

TEST_F(MetaMacrosTest, ArgumentsAreTakenAsWrittenAndOtherMacrosLeftToNvcc) {
  std::string Out = expandOnce(
      "#define TWO 2\n"
      "#define M(a, ...) @meta int a##_n = TWO; f(#a, a - __VA_ARGS__)\n"
      "void g() { M(x, -1, TWO); }\n");
  EXPECT_EQ(Out, "#define TWO 2\n\nvoid g() { @meta int x_n = TWO; "
                 "f(\"x\", x - -1, TWO); }\n");
}

TEST_F(MetaMacrosTest, UseOverSeveralLinesKeepsTheLinesBelow) {
  std::string Out = expandOnce("#define S(a, b) @(a + b)\n"
                               "int v = S(1,\n        2); int w;\n");
  EXPECT_EQ(Out, "\nint v = @(1 + 2)\n; int w;\n");
}

} // namespace
