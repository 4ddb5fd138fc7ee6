//===- HostSliceTest.cpp - What meta code needs from ordinary code --------===//
#include "expand/HostSlice.h"
#include "Fixture.h"
#include "TempDir.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <memory>

using namespace metacu;

namespace {

class HostSliceTest : public ::testing::Test {
protected:

  /// Scans and slices \p Code as k.cu.
  llvm::Expected<HostSliceResult> slice(std::string Code,
                                        std::vector<std::string> Args = {}) {
    File = std::make_unique<SourceFile>(Tmp.path("k.cu"), std::move(Code));
    auto S = scan(*File);
    if (!S)
      return S.takeError();
    Scan = std::move(*S);
    HostSliceOptions Opts;
    Opts.Flags.Args = std::move(Args);
    Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
    Opts.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    return sliceHost(*File, Scan, metaIdentifiers(Scan), Opts);
  }

  unsigned offsetOf(llvm::StringRef Needle) const {
    size_t P = File->text().find(Needle);
    EXPECT_NE(P, llvm::StringRef::npos) << Needle.str();
    return P;
  }
  std::string text(Range R) const {
    return File->text().slice(R.Begin, R.End).str();
  }
  static bool covers(const std::vector<Range> &Rs, unsigned Offset) {
    for (const Range &R : Rs)
      if (R.Begin <= Offset && Offset < R.End)
        return true;
    return false;
  }

  TempDir Tmp;
  std::unique_ptr<SourceFile> File;
  ScanResult Scan;
};

TEST_F(HostSliceTest, SelectsWhatMetaCodeUsesWithItsDependencies) {
  Tmp.write("local.h", "#pragma once\n"
                   "enum class local_mode { fast, exact };\n"
                   "struct local_pair { int a; float b; };\n");
  auto R = slice("#include <map>\n"
                 "#include <vector>\n"
                 "#include \"local.h\"\n"
                 "struct details_t { int nt; int vt; };\n"
                 "struct unrelated_t { int z; };\n"
                 "const std::map<int, details_t> table { {80, {128, 4}} };\n"
                 "const int unused = 3;\n"
                 "int helper(int x) { return x * 3; }\n"
                 "std::vector<int> also_unused;\n"
                 "__device__ int dev_fn(int x) { return x + 1; }\n"
                 "__global__ void kern(int *p) { p[0] = dev_fn(1); }\n"
                 "__global__ void other(int *p) { p[0] = 2; }\n"
                 "@meta int n = table.at(80).nt;\n"
                 "@meta auto kp = &kern;\n"
                 "@meta int h = helper(2);\n"
                 "@meta local_mode m = local_mode::fast;\n");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());

  // The table, the struct its type names, the host function and the
  // kernel, in source order, each with its body; nothing else (the kernel's
  // body, which calls dev_fn, is not looked at).
  std::vector<std::string> Decls;
  for (const SliceDecl &D : R->Declarations)
    Decls.push_back(text(D.Text));
  EXPECT_EQ(Decls,
            (std::vector<std::string>{
                "struct details_t { int nt; int vt; };",
                "const std::map<int, details_t> table { {80, {128, 4}} };",
                "int helper(int x) { return x * 3; }",
                "__global__ void kern(int *p) { p[0] = dev_fn(1); }"}));
  ASSERT_EQ(R->Declarations.size(), 4u);
  EXPECT_EQ(R->Declarations[0].BodyBegin, 0u);
  EXPECT_EQ(R->Declarations[1].BodyBegin, 0u);
  // A host function is compiled whole by the generator ...
  EXPECT_EQ(R->Declarations[2].BodyBegin, 0u);
  // ... but only nvcc compiles a kernel's body: the generator gets a
  // declaration.
  EXPECT_EQ(R->Declarations[3].BodyBegin, offsetOf("{ p[0] = dev_fn"));

  // <map> provides std::map and "local.h" local_mode; <vector> is unused.
  std::vector<std::string> Includes;
  for (const Range &I : R->NeededIncludes)
    Includes.push_back(text(I));
  EXPECT_EQ(Includes, (std::vector<std::string>{"#include <map>",
                                                "#include \"local.h\""}));

  // Aggregates: the selected one, and those of the needed local header.
  ASSERT_EQ(R->Records.size(), 2u);
  const RecordInfo *Details = nullptr, *Pair = nullptr;
  for (const RecordInfo &I : R->Records)
    (I.QualifiedName == "details_t" ? Details : Pair) = &I;
  ASSERT_TRUE(Details && Pair);
  EXPECT_EQ(Pair->QualifiedName, "local_pair");
  EXPECT_EQ(Details->Fields, (std::vector<std::string>{"nt", "vt"}));
  EXPECT_FALSE(Details->FromHeader);
  EXPECT_EQ(Details->After, R->Declarations[0].Text.End);
  EXPECT_EQ(Pair->Fields, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(Pair->FromHeader);
  EXPECT_EQ(Pair->After, R->NeededIncludes[1].Begin);

  ASSERT_EQ(R->Enums.size(), 1u);
  EXPECT_EQ(R->Enums[0].QualifiedName, "local_mode");
  EXPECT_TRUE(R->Enums[0].Scoped);
  EXPECT_TRUE(R->Enums[0].FromHeader);
  EXPECT_EQ(R->Enums[0].Enumerators,
            (std::vector<std::string>{"fast", "exact"}));
  EXPECT_EQ(R->Enums[0].After, R->NeededIncludes[1].Begin);

  // Every file read, the input first.
  ASSERT_FALSE(R->Files.empty());
  EXPECT_EQ(R->Files[0], Tmp.path("k.cu"));
  EXPECT_NE(std::find(R->Files.begin(), R->Files.end(), Tmp.path("local.h")),
            R->Files.end());
  EXPECT_TRUE(R->MetaHeaders.empty());
}

TEST_F(HostSliceTest, FindsInactiveAndArchConditionalRegions) {
  Tmp.write("meta.h", "int q;\n  @meta int w = 1;\n");
  auto R = slice("#define A __CUDA_ARCH__\n"
                 "int before;\n"
                 "#if 0\n"
                 "@meta for (\n"
                 "#endif\n"
                 "#if __CUDA_ARCH__ >= 800\n"
                 "int arch1;\n"
                 "#define HAS_FAST 1\n"
                 "#endif\n"
                 "#if A >= 800\n"
                 "int arch2;\n"
                 "#endif\n"
                 "#ifdef HAS_FAST\n"
                 "int arch3;\n"
                 "#endif\n"
                 "#if defined(FOO) && FOO > 1\n"
                 "int foo_on;\n"
                 "#else\n"
                 "int foo_off;\n"
                 "#endif\n"
                 "#include \"meta.h\"\n",
                 {"-DFOO=2"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());

  EXPECT_TRUE(covers(R->Inactive, offsetOf("@meta for")));
  EXPECT_TRUE(covers(R->Inactive, offsetOf("int arch1")));
  EXPECT_TRUE(covers(R->Inactive, offsetOf("int foo_off")));
  // -DFOO=2 keeps the first branch.
  EXPECT_FALSE(covers(R->Inactive, offsetOf("int foo_on")));
  EXPECT_FALSE(covers(R->Inactive, offsetOf("int before")));

  EXPECT_TRUE(covers(R->ArchConditional, offsetOf("int arch1")));
  // Through a macro that expands to __CUDA_ARCH__.
  EXPECT_TRUE(covers(R->ArchConditional, offsetOf("int arch2")));
  // Through a macro defined in an arch-conditional block.
  EXPECT_TRUE(covers(R->ArchConditional, offsetOf("int arch3")));
  EXPECT_FALSE(covers(R->ArchConditional, offsetOf("@meta for")));
  EXPECT_FALSE(covers(R->ArchConditional, offsetOf("int foo_on")));
  EXPECT_FALSE(covers(R->ArchConditional, offsetOf("int before")));
  EXPECT_EQ(R->ArchConditional.size(), 3u);

  // A local header with meta constructs is reported at its #include.
  ASSERT_EQ(R->MetaHeaders.size(), 1u);
  const MetaHeader &H = R->MetaHeaders[0];
  EXPECT_EQ(H.Path, Tmp.path("meta.h"));
  EXPECT_EQ(File->lineStart(H.IncludeOffset), offsetOf("#include \"meta.h\""));
  EXPECT_EQ(H.Line, 2u);
  EXPECT_EQ(H.Col, 3u);
  EXPECT_NE(std::find(R->Files.begin(), R->Files.end(), Tmp.path("meta.h")),
            R->Files.end());
}

TEST_F(HostSliceTest, MissingHeaderIsAnErrorAtItsInclude) {
  auto R = slice("int a;\n#include \"nowhere.h\"\n@meta int n = a;\n");
  ASSERT_FALSE(bool(R));
  unsigned Offset = ~0u;
  std::string Msg;
  llvm::handleAllErrors(R.takeError(), [&](const LocatedError &E) {
    Offset = E.offset();
    Msg = E.text();
  });
  EXPECT_EQ(File->line(Offset), 2u);
  EXPECT_NE(Msg.find("'nowhere.h' file not found"), std::string::npos) << Msg;
  EXPECT_NE(Msg.find("-I"), std::string::npos) << Msg;
}

TEST(HostSliceMaskTest, MetaConstructsBecomeBlanksKeepingNewlines) {
  SourceFile F("k.cu", "int a;\n@meta for (int i = 0; i < 2; ++i)\n  x(@(i));\n"
                       "int b = @(1);\n@ bad\n");
  auto S = scan(F);
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  std::string M = maskMetaConstructs(F, *S);
  // Malformed constructs stay: they are only errors if the parse keeps them.
  EXPECT_EQ(M, "int a;\n" + std::string(33, ' ') + "\n" + std::string(10, ' ') +
                   "\nint b =     ;\n@ bad\n");
  EXPECT_EQ(M.size(), F.size());
}

//===--- Annotated inputs (Fixture.h) -------------------------------------===//

/// The text of each declaration the slice selected, in order.
std::vector<std::string> declarations(const TestTU &TU,
                                      const HostSliceResult &R) {
  std::vector<std::string> Out;
  for (const SliceDecl &D : R.Declarations)
    Out.push_back(TU.text(D.Text));
  return Out;
}

TEST(HostSliceDeclTest, WhatMetaCodeDoesNotNameIsNotSelected) {
  TestTU TU("int helper(int x) { return x; }\n"
            "const int used_by_code = helper(2);\n"
            "struct plain { int a; };\n"
            "__global__ void k(int *p) { p[0] = used_by_code; }\n"
            "@meta int n = 2;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // Ordinary code using a declaration does not make the generator need it.
  EXPECT_TRUE(R->Declarations.empty());
  EXPECT_TRUE(R->NeededIncludes.empty());
  EXPECT_TRUE(R->Records.empty());
  EXPECT_FALSE(R->NeedsCudaRuntime);
}

TEST(HostSliceDeclTest, DependenciesOfDependenciesAreSelected) {
  TestTU TU("[[using count_t = int;]]\n"
            "[[struct inner { count_t v; };]]\n"
            "[[struct outer { inner in; };]]\n"
            "[[constexpr outer make() { return outer{{3}}; }]]\n"
            "struct unrelated { int z; };\n"
            "[[const outer config = make();]]\n"
            "@meta int n = config.in.v;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  std::vector<std::string> Want;
  for (const Range &Rg : TU.ranges())
    Want.push_back(TU.text(Rg));
  EXPECT_EQ(declarations(TU, *R), Want);
}

TEST(HostSliceDeclTest, AMetaNameDoesNotSelectTheOrdinaryDeclarationItHides) {
  TestTU TU("const int width = 2;\n"
            "[[const int height = 3;]]\n"
            "@meta int width = 4;\n"
            "@meta int area = width * height;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R),
            std::vector<std::string>{TU.text(TU.range())});
}

TEST(HostSliceDeclTest, DeviceBodiesAreLeftToNvccHostBodiesAreKept) {
  TestTU TU(
      "template <int N> __device__ int dev(int x) $dev^{ return x * N; }\n"
      "__host__ __device__ int both(int x) { return x + 1; }\n"
      "__global__ void kern(int *p, int (*f)(int)) $kern^{ p[0] = 1; }\n"
      "@meta auto d = &dev<2>;\n"
      "@meta auto b = &both;\n"
      "@meta auto k = &kern;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Declarations.size(), 3u);
  EXPECT_EQ(R->Declarations[0].BodyBegin, TU.point("dev"));
  // A function nvcc compiles for the host too is compiled whole.
  EXPECT_EQ(R->Declarations[1].BodyBegin, 0u);
  // The parameter list's parentheses hold no body.
  EXPECT_EQ(R->Declarations[2].BodyBegin, TU.point("kern"));
  EXPECT_EQ(TU.text(R->Declarations[2].Text),
            "__global__ void kern(int *p, int (*f)(int)) { p[0] = 1; }");
}

TEST(HostSliceIncludeTest, OnlyIncludesThatProvideWhatMetaCodeUses) {
  TestTU TU("[[#include \"tile.h\"]]\n"
            "#include \"unused.h\"\n"
            "[[#include \"nested.h\"]]\n"
            "@meta int t = TILE * depth();\n");
  TU.write("tile.h", "#pragma once\n#define TILE 16\n");
  TU.write("unused.h", "#pragma once\nint unused_fn();\n");
  TU.write("nested.h", "#pragma once\n#include \"deep.h\"\n");
  TU.write("deep.h", "#pragma once\nconstexpr int depth() { return 2; }\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // A macro's header, and the main-file include that leads to a nested one.
  ASSERT_EQ(R->NeededIncludes.size(), 2u);
  EXPECT_EQ(TU.text(R->NeededIncludes[0]), TU.text(TU.ranges()[0]));
  EXPECT_EQ(TU.text(R->NeededIncludes[1]), TU.text(TU.ranges()[1]));
  EXPECT_TRUE(R->Declarations.empty());
}

TEST(HostSliceIncludeTest, CudaRuntimeTypesNeedTheImplicitInclude) {
  TestTU TU("@meta dim3 block(16, 16);\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->NeedsCudaRuntime);
  EXPECT_TRUE(R->NeededIncludes.empty());
}

TEST(HostSliceReflectTest, MainFileEnumsAndRecordsFollowTheirDeclaration) {
  TestTU TU("namespace tune {\n"
            "enum class mode { fast, exact };\n"
            "enum level { low = 1, high = 4 };\n"
            "struct cfg { int threads; mode m; };\n"
            "}\n"
            "const tune::cfg table{128, tune::mode::fast};\n"
            "@meta tune::cfg c = table;\n"
            "@meta tune::level l = tune::high;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Enums.size(), 2u);
  EXPECT_EQ(R->Enums[0].QualifiedName, "tune::mode");
  EXPECT_TRUE(R->Enums[0].Scoped);
  EXPECT_FALSE(R->Enums[0].FromHeader);
  EXPECT_EQ(R->Enums[1].QualifiedName, "tune::level");
  EXPECT_FALSE(R->Enums[1].Scoped);
  EXPECT_EQ(R->Enums[1].Enumerators, (std::vector<std::string>{"low", "high"}));
  ASSERT_EQ(R->Records.size(), 1u);
  EXPECT_EQ(R->Records[0].QualifiedName, "tune::cfg");
  EXPECT_EQ(R->Records[0].Fields, (std::vector<std::string>{"threads", "m"}));
  // Each is described where its declaration ends.
  for (const EnumInfo &E : R->Enums)
    EXPECT_TRUE(llvm::any_of(R->Declarations, [&](const SliceDecl &D) {
      return D.Text.End == E.After;
    })) << E.QualifiedName;
  EXPECT_EQ(TU.code().substr(0, R->Records[0].After).rtrim().back(), ';');
}

TEST(HostSliceReflectTest, OnlyAggregatesWithPublicNamedFieldsAreSpelled) {
  TestTU TU("struct base { int b; };\n"
            "struct derived : base { int d; };\n"
            "class hidden { int h; public: int v; };\n"
            "struct ctor { ctor(int x) : c(x) {} int c; };\n"
            "union either { int i; float f; };\n"
            "struct fine { int a; float b; };\n"
            "@meta derived d{};\n"
            "@meta hidden h{};\n"
            "@meta ctor c{1};\n"
            "@meta either e{};\n"
            "@meta fine f{};\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // 'base', which 'derived' pulls in, is one.
  std::vector<std::string> Names;
  for (const RecordInfo &I : R->Records)
    Names.push_back(I.QualifiedName);
  EXPECT_EQ(Names, (std::vector<std::string>{"base", "fine"}));
}

TEST(HostSliceRegionTest, DefinesFromTheCommandLineDecideInactiveRegions) {
  TestTU TU("#ifdef FAST\n"
            "int $fast^on;\n"
            "#else\n"
            "int $slow^off;\n"
            "#endif\n"
            "#ifndef FAST\n"
            "int $notfast^x;\n"
            "#endif\n");
  auto Off = TU.slice();
  ASSERT_TRUE(bool(Off)) << llvm::toString(Off.takeError());
  EXPECT_TRUE(anyContains(Off->Inactive, TU.point("fast")));
  EXPECT_FALSE(anyContains(Off->Inactive, TU.point("slow")));
  EXPECT_FALSE(anyContains(Off->Inactive, TU.point("notfast")));
  auto On = TU.slice({"-DFAST"});
  ASSERT_TRUE(bool(On)) << llvm::toString(On.takeError());
  EXPECT_FALSE(anyContains(On->Inactive, TU.point("fast")));
  EXPECT_TRUE(anyContains(On->Inactive, TU.point("slow")));
  EXPECT_TRUE(anyContains(On->Inactive, TU.point("notfast")));
  EXPECT_TRUE(On->ArchConditional.empty());
}

TEST(HostSliceRegionTest, ArchConditionalThroughElifAndIfdef) {
  TestTU TU("#$if1^if defined(FOO)\n"
            "int $a^a;\n"
            "#elif __CUDA_ARCH__ >= 700\n"
            "int $b^b;\n"
            "#endif\n"
            "#$if2^ifdef __CUDA_ARCH__\n"
            "int $c^c;\n"
            "#endif\n"
            "#if defined(BAR)\n"
            "int $d^d;\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // The whole block, from #if to #endif, whichever branch tests it.
  ASSERT_EQ(R->ArchConditional.size(), 2u);
  EXPECT_TRUE(anyContains(R->ArchConditional, TU.point("a")));
  EXPECT_TRUE(anyContains(R->ArchConditional, TU.point("b")));
  EXPECT_TRUE(anyContains(R->ArchConditional, TU.point("c")));
  EXPECT_FALSE(anyContains(R->ArchConditional, TU.point("d")));
  EXPECT_EQ(R->ArchConditional[0].Begin, TU.point("if1"));
  EXPECT_EQ(R->ArchConditional[1].Begin, TU.point("if2"));
}

TEST(HostSliceRegionTest, CompilerConditionalBlocksAreListed) {
  TestTU TU("#ifdef __CUDACC__\n"
            "int $cc^cc;\n"
            "#endif\n"
            "#if defined(__NVCC__) || FOO\n"
            "int $nv^nv;\n"
            "#endif\n"
            "int $plain^plain;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->CompilerConditional.size(), 2u);
  EXPECT_TRUE(anyContains(R->CompilerConditional, TU.point("cc")));
  EXPECT_TRUE(anyContains(R->CompilerConditional, TU.point("nv")));
  EXPECT_FALSE(anyContains(R->CompilerConditional, TU.point("plain")));
  // C++ mode defines neither.
  EXPECT_TRUE(anyContains(R->Inactive, TU.point("cc")));
  EXPECT_TRUE(R->ArchConditional.empty());
}

TEST(HostSliceRegionTest, ConstructsUnderCudaccAreSettledByACudaModePass) {
  TestTU TU("#ifdef __CUDACC__\n"
            "$on^@meta int on = 1;\n"
            "#else\n"
            "$off^@meta int off = 2;\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // nvcc's host pass defines __CUDACC__: the first branch is compiled.
  EXPECT_TRUE(R->CompilerConditional.empty());
  EXPECT_FALSE(anyContains(R->Inactive, TU.point("on")));
  EXPECT_TRUE(anyContains(R->Inactive, TU.point("off")));
}

TEST(HostSliceHeaderTest, MetaHeadersAreFoundThroughNestedIncludes) {
  TestTU TU("int a;\n$inc^#include \"outer.h\"\n#include \"clean.h\"\n");
  TU.write("outer.h", "#pragma once\n#include \"inner.h\"\n");
  TU.write("inner.h", "int i;\n\n    @(i);\n");
  TU.write("clean.h", "// @meta in a comment is no construct\n"
                      "const char *s = \"@meta\";\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->MetaHeaders.size(), 1u);
  EXPECT_EQ(R->MetaHeaders[0].Path, TU.path("inner.h"));
  EXPECT_EQ(TU.file().lineStart(R->MetaHeaders[0].IncludeOffset),
            TU.point("inc"));
  EXPECT_EQ(R->MetaHeaders[0].Line, 3u);
  EXPECT_EQ(R->MetaHeaders[0].Col, 5u);
}

TEST(HostSliceFilesTest, EveryFileReadOnceInputFirstSystemHeadersToo) {
  TestTU TU("#include \"a.h\"\n#include \"b.h\"\n#include <vector>\n");
  TU.write("a.h", "#pragma once\n#include \"b.h\"\n");
  TU.write("b.h", "#pragma once\nint b;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_GE(R->Files.size(), 4u);
  EXPECT_EQ(R->Files[0], TU.path("k.cu"));
  auto Pos = [&](llvm::StringRef Suffix) {
    return llvm::find_if(R->Files,
                         [&](const std::string &F) {
                           return llvm::StringRef(F).ends_with(Suffix);
                         }) -
           R->Files.begin();
  };
  EXPECT_LT(Pos("/a.h"), Pos("/b.h"));
  EXPECT_LT(size_t(Pos("/vector")), R->Files.size());
  EXPECT_EQ(llvm::count(R->Files, TU.path("b.h")), 1);
}

} // namespace
