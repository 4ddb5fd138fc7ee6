//===- DialectHeadersTest.cpp - Dialect headers spliced into the input ----===//
#include "expand/DialectHeaders.h"
#include "TempDir.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(MetaConstructsTest, AreFoundOutsideCommentsAndLiterals) {
  EXPECT_TRUE(hasMetaConstructs("int a;\n@meta int n = 2;\n"));
  EXPECT_TRUE(hasMetaConstructs("int a = @(n);\n"));
  EXPECT_TRUE(hasMetaConstructs("void f() { if codegen (true) {} }\n"));
  EXPECT_FALSE(hasMetaConstructs("// @meta int n;\n/* if codegen (x) */\n"));
  EXPECT_FALSE(hasMetaConstructs("const char *s = \"@meta if codegen\";\n"));
  EXPECT_FALSE(hasMetaConstructs("int codegen_table[2]; @ x;\n"));
}

class DialectHeadersTest : public ::testing::Test {
protected:
  /// Splices \p Code, written as k.cu.
  SplicedInput splice(std::string Code, std::vector<std::string> Args = {}) {
    HostSliceOptions Opts;
    Opts.Flags.Args = std::move(Args);
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = RuntimeInclude;
    auto R =
        spliceDialectHeaders(SourceFile(Tmp.write("k.cu", Code), Code), Opts);
    if (!R) {
      ADD_FAILURE() << llvm::toString(R.takeError());
      return {SourceFile("", ""), {}};
    }
    return std::move(*R);
  }

  /// Splices \p Code written as src/k.cu and named so, relatively, from
  /// the temporary directory as metacu's working directory: the input as
  /// a user spells it.
  llvm::Expected<SplicedInput> spliceInTmp(const std::string &Code,
                                           const HostSliceOptions &Opts) {
    Tmp.write("src/k.cu", Code);
    llvm::SmallString<256> Old;
    EXPECT_FALSE(llvm::sys::fs::current_path(Old));
    EXPECT_FALSE(llvm::sys::fs::set_current_path(Tmp.dir()));
    auto S = spliceDialectHeaders(SourceFile("src/k.cu", Code), Opts);
    EXPECT_FALSE(llvm::sys::fs::set_current_path(Old));
    return S;
  }

  /// Where the first \p Needle of the splice was written, as "path:line".
  static std::string originOf(const SplicedInput &S, llvm::StringRef Needle) {
    size_t P = S.Text.text().find(Needle);
    if (P == llvm::StringRef::npos)
      return "<absent>";
    Origin O = S.Text.origin(P);
    return O.Path.str() + ":" + std::to_string(O.Where.Line);
  }

  static unsigned count(llvm::StringRef Text, llvm::StringRef Needle) {
    return Text.count(Needle);
  }

  TempDir Tmp;
  std::string RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
};

TEST_F(DialectHeadersTest, GuardedHeaderIsSplicedOnceInPlace) {
  Tmp.write("a.cuh", "#ifndef A_CUH\n#define A_CUH\n@meta int a = 1;\n"
                     "__device__ int fa() { return @(a); }\n#endif\n");
  Tmp.write("plain.h", "int plain;\n");
  SplicedInput S = splice("int before;\n#include \"a.cuh\"\n"
                          "#include \"plain.h\"\n#include \"a.cuh\"\n"
                          "int after;\n");
  llvm::StringRef T = S.Text.text();
  EXPECT_EQ(count(T, "@meta int a = 1;"), 1u) << T.str();
  EXPECT_EQ(count(T, "#include \"a.cuh\""), 0u) << T.str();
  // A header without meta constructs stays an #include.
  EXPECT_EQ(count(T, "#include \"plain.h\""), 1u) << T.str();
  EXPECT_LT(T.find("int before;"), T.find("@meta int a"));
  EXPECT_LT(T.find("@meta int a"), T.find("int after;"));
  // Every line of the splice maps back to where it was written.
  EXPECT_EQ(originOf(S, "int before;"), Tmp.path("k.cu") + ":1");
  EXPECT_EQ(originOf(S, "@meta int a"), Tmp.path("a.cuh") + ":3");
  EXPECT_FALSE(S.Text.origin(S.Text.text().find("@meta int a")).Library);
  EXPECT_EQ(originOf(S, "__device__ int fa"), Tmp.path("a.cuh") + ":4");
  EXPECT_EQ(originOf(S, "#include \"plain.h\""), Tmp.path("k.cu") + ":3");
  EXPECT_EQ(originOf(S, "int after;"), Tmp.path("k.cu") + ":5");
  ASSERT_EQ(S.Headers.size(), 1u);
  EXPECT_EQ(S.Headers[0], Tmp.path("a.cuh"));
  EXPECT_EQ(S.Text.path(), Tmp.path("k.cu"));
}

TEST_F(DialectHeadersTest, PragmaOnceHeaderIsSplicedOnceAndThePragmaBlanked) {
  Tmp.write("o.cuh", "#pragma once\n@meta int o = 1;\n");
  SplicedInput S = splice("#include \"o.cuh\"\n#include \"o.cuh\"\nint z;\n");
  llvm::StringRef T = S.Text.text();
  EXPECT_EQ(count(T, "@meta int o = 1;"), 1u) << T.str();
  EXPECT_EQ(count(T, "#pragma once"), 0u) << T.str();
  EXPECT_EQ(count(T, "#include"), 0u) << T.str();
  EXPECT_EQ(originOf(S, "int z;"), Tmp.path("k.cu") + ":3");
}

TEST_F(DialectHeadersTest, UnguardedHeaderIsSplicedAtEachInclude) {
  Tmp.write("body.inc", "@meta n += 1;");
  SplicedInput S = splice("void f() {\n#include \"body.inc\"\n"
                          "#include \"body.inc\"\n}\n");
  llvm::StringRef T = S.Text.text();
  EXPECT_EQ(count(T, "@meta n += 1;"), 2u) << T.str();
  // The header's missing final newline does not join it to the next line.
  EXPECT_EQ(originOf(S, "}"), Tmp.path("k.cu") + ":4");
  EXPECT_EQ(S.Headers.size(), 1u);
}

TEST_F(DialectHeadersTest, SkippedIncludesAreLeftAsTheyAre) {
  Tmp.write("m.cuh", "@meta int m = 1;\n");
  SplicedInput S = splice("#if 0\n#include \"m.cuh\"\n#endif\n"
                          "#ifdef WANT_M\n#include \"m.cuh\"\n#endif\n");
  EXPECT_EQ(count(S.Text.text(), "#include \"m.cuh\""), 2u);
  EXPECT_TRUE(S.Headers.empty());
  // The preprocessor state decides, -D flags included.
  SplicedInput D = splice("#if 0\n#include \"m.cuh\"\n#endif\n"
                          "#ifdef WANT_M\n#include \"m.cuh\"\n#endif\n",
                          {"-DWANT_M"});
  EXPECT_EQ(count(D.Text.text(), "#include \"m.cuh\""), 1u);
  EXPECT_EQ(count(D.Text.text(), "@meta int m"), 1u);
  EXPECT_EQ(originOf(D, "@meta int m"), Tmp.path("m.cuh") + ":1");
}

TEST_F(DialectHeadersTest, NestedHeadersAreSplicedAndTheirOwnIncludesKept) {
  Tmp.write("lib/outer.cuh", "#pragma once\n#include \"inner.cuh\"\n"
                             "#include \"detail.h\"\n#include <cstddef>\n"
                             "@meta int outer = inner + 1;\n");
  Tmp.write("lib/inner.cuh", "#pragma once\n@meta int inner = 1;\n");
  Tmp.write("lib/detail.h", "int detail;\n");
  SplicedInput S = splice("#include \"lib/outer.cuh\"\n");
  llvm::StringRef T = S.Text.text();
  EXPECT_LT(T.find("@meta int inner"), T.find("@meta int outer")) << T.str();
  // detail.h was found beside outer.cuh; the splice reads from the input's
  // directory. <cstddef> is found the same way from anywhere.
  EXPECT_EQ(count(T, "#include \"lib/detail.h\""), 1u) << T.str();
  EXPECT_EQ(count(T, "#include <cstddef>"), 1u) << T.str();
  EXPECT_EQ(originOf(S, "@meta int inner"), Tmp.path("lib/inner.cuh") + ":2");
  EXPECT_EQ(originOf(S, "@meta int outer"), Tmp.path("lib/outer.cuh") + ":5");
  EXPECT_EQ(S.Headers, (std::vector<std::string>{Tmp.path("lib/outer.cuh"),
                                                 Tmp.path("lib/inner.cuh")}));
}

TEST_F(DialectHeadersTest, SplicedTextKnowsTheInputsIncludeThatReadIt) {
  Tmp.write("inc/inner.cuh", "#pragma once\n@meta int inner = 1;\n");
  Tmp.write("inc/outer.h", "#pragma once\nint o;\n#include <inner.cuh>\n"
                           "int after_inner;\n");
  Tmp.write("d.cuh", "@meta int d = 2;\n");
  SplicedInput S = splice("#include <cstddef>\n\n  #  include <outer.h>\n"
                          "int mid;\n#include \"d.cuh\"\nint end;\n",
                          {"-I" + Tmp.path("inc")});
  auto IncludedAt = [&](llvm::StringRef Needle) {
    size_t P = S.Text.text().find(Needle);
    EXPECT_NE(P, llvm::StringRef::npos) << Needle.str();
    return S.Text.origin(P).IncludedAt;
  };
  // Through a plain header found on the include path, and one beside the
  // input: the #include line of the input, however it is written.
  EXPECT_EQ(IncludedAt("@meta int inner"), 3u);
  EXPECT_EQ(IncludedAt("int o;"), 3u);
  EXPECT_EQ(IncludedAt("int after_inner;"), 3u);
  EXPECT_EQ(IncludedAt("@meta int d"), 5u);
  // The input's own lines.
  EXPECT_EQ(IncludedAt("#include <cstddef>"), 0u);
  EXPECT_EQ(IncludedAt("int mid;"), 0u);
  EXPECT_EQ(IncludedAt("int end;"), 0u);
}

TEST_F(DialectHeadersTest, PlainHeaderThatIncludesADialectHeaderIsSpliced) {
  Tmp.write("all.h", "#pragma once\n#include \"d.cuh\"\nint all;\n");
  Tmp.write("d.cuh", "#pragma once\n@meta int d = 1;\n");
  SplicedInput S = splice("#include \"all.h\"\n");
  EXPECT_EQ(count(S.Text.text(), "@meta int d"), 1u);
  EXPECT_EQ(count(S.Text.text(), "int all;"), 1u);
  EXPECT_EQ(originOf(S, "int all;"), Tmp.path("all.h") + ":3");
}

TEST_F(DialectHeadersTest, AHeaderWhoseIncludeOfASplicedHeaderIsSkipped) {
  // Cooperative groups' layout: <cg/reduce.h> includes "../cg.h", which the
  // input included first. Left an #include, reduce.h would make nvcc (and
  // the host slice) enter cg.h again: with '#pragma once', which the splice
  // blanks, its meta constructs would be read twice.
  for (llvm::StringRef Guard :
       {"#pragma once\n", "#ifndef CG_H\n#define CG_H\n"}) {
    TempDir Dir;
    Dir.write("inc/cg.h", Guard.str() + "@meta int cg = 1;\nint g;\n" +
                              (Guard.contains("ifndef") ? "#endif\n" : ""));
    Dir.write("inc/cg/reduce.h", "#pragma once\n#include \"../cg.h\"\n"
                                 "#include \"detail.h\"\nint r;\n");
    Dir.write("inc/cg/detail.h", "#pragma once\n#include \"../cg.h\"\n"
                                 "int detail;\n");
    Dir.write("inc/cg/plain.h", "#pragma once\nint plain;\n");
    HostSliceOptions Opts;
    Opts.Flags.Args = {"-I" + Dir.path("inc")};
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = RuntimeInclude;
    std::string Code = "#include <cg.h>\n#include <cg/reduce.h>\n"
                       "#include <cg/plain.h>\nint k;\n";
    auto R =
        spliceDialectHeaders(SourceFile(Dir.write("k.cu", Code), Code), Opts);
    ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
    llvm::StringRef Text = R->Text.text();
    EXPECT_EQ(count(Text, "@meta int cg"), 1u) << Guard.str();
    // reduce.h and detail.h (which includes cg.h too) are spliced; a header
    // that includes no dialect header stays an #include.
    EXPECT_EQ(count(Text, "int r;"), 1u) << Guard.str();
    EXPECT_EQ(count(Text, "int detail;"), 1u) << Guard.str();
    EXPECT_FALSE(Text.contains("cg.h\"")) << Text.str();
    EXPECT_FALSE(Text.contains("reduce.h")) << Text.str();
    EXPECT_TRUE(Text.contains("#include <cg/plain.h>")) << Text.str();
  }
}

TEST_F(DialectHeadersTest, HeadersOfTheRuntimeDirectoryAreShownByIncludeName) {
  RuntimeInclude = Tmp.path("runtime");
  Tmp.write("runtime/metacu/lib.cuh", "#pragma once\n@meta int lib = 1;\n");
  SplicedInput S = splice("int u;\n#include <metacu/lib.cuh>\n");
  EXPECT_EQ(originOf(S, "@meta int lib"), "metacu/lib.cuh:2");
  // #line names the file itself: nvcc's dependency file lists that name.
  Origin Lib = S.Text.origin(S.Text.text().find("@meta int lib"));
  EXPECT_EQ(Lib.LinePath, Tmp.path("runtime/metacu/lib.cuh"));
  EXPECT_EQ(S.Text.origin(0).LinePath, Tmp.path("k.cu"));
  // Errors there are shown at the user's line where Clang says which.
  EXPECT_TRUE(Lib.Library);
  EXPECT_FALSE(S.Text.origin(0).Library);
  EXPECT_EQ(S.Headers,
            std::vector<std::string>{Tmp.path("runtime/metacu/lib.cuh")});
}

TEST_F(DialectHeadersTest, HeadersOutsideTheInputDirectoryAreNamedRelatively) {
  Tmp.write("inc/x.cuh", "#pragma once\n@meta int x = 1;\n");
  HostSliceOptions Opts;
  Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
  Opts.Flags.Args = {"-I" + Tmp.path("inc")};
  std::string Code = "#include <x.cuh>\n";
  // The input as the user spelled it, relative to a working directory.
  auto S = spliceInTmp(Code, Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(originOf(*S, "@meta int x"), "src/../inc/x.cuh:2");
  // In #line, nvcc's name for it (__FILE__ in its asserts): the -I
  // directory as given joined with the include name, which opens from
  // anywhere, not a path from the input's directory.
  EXPECT_EQ(S->Text.origin(S->Text.text().find("@meta int x")).LinePath,
            Tmp.path("inc") + "/x.cuh");
}

TEST_F(DialectHeadersTest, HeadersFoundFromAnIncluderAreNamedAsNvccNamesThem) {
  // nvcc names a quote-include found beside its includer by the includer's
  // directory as it named the includer, dots and all:
  // 'src/../inc/../lib/y.cuh', from the input as the user spelled it.
  Tmp.write("inc/x.cuh", "#pragma once\n#include \"../lib/y.cuh\"\n");
  Tmp.write("lib/y.cuh", "#pragma once\n@meta int y = 1;\n");
  HostSliceOptions Opts;
  Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
  std::string Code = "#include \"../inc/x.cuh\"\n";
  auto S = spliceInTmp(Code, Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Text.origin(S->Text.text().find("@meta int y")).LinePath,
            "src/../inc/../lib/y.cuh");
}

TEST_F(DialectHeadersTest,
       RuntimeHeadersAreLineNamedByRealPathWhereverTheInputIs) {
  // A runtime directory reached through a link, and an input named
  // relatively: the include name does not open from the working
  // directory, and a path through the link is one more name for it.
  RuntimeInclude = Tmp.path("link");
  Tmp.write("runtime/metacu/lib.cuh", "#pragma once\n@meta int lib = 1;\n");
  ASSERT_FALSE(
      llvm::sys::fs::create_link(Tmp.path("runtime"), Tmp.path("link")));
  std::string Code = "int u;\n#include <metacu/lib.cuh>\n";
  HostSliceOptions Opts;
  Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
  Opts.RuntimeInclude = RuntimeInclude;
  auto S = spliceInTmp(Code, Opts);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  Origin Lib = S->Text.origin(S->Text.text().find("@meta int lib"));
  EXPECT_EQ(Lib.Path, "metacu/lib.cuh");
  llvm::SmallString<256> Real;
  ASSERT_FALSE(
      llvm::sys::fs::real_path(Tmp.path("runtime/metacu/lib.cuh"), Real));
  EXPECT_EQ(Lib.LinePath, Real.str());
  EXPECT_EQ(S->Text.origin(0).LinePath, "src/k.cu");
}

} // namespace
