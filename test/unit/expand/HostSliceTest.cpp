//===- HostSliceTest.cpp - What meta code needs from ordinary code --------===//
#include "expand/HostSlice.h"
#include "Fixture.h"
#include "TempDir.h"
#include "expand/MetaNames.h"
#include "support/Diagnostic.h"
#include "toolchain/Preambles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <gtest/gtest.h>
#include <memory>

using namespace metacu;

namespace {

/// Whether one of \p Rs holds \p Offset.
bool covers(const std::vector<Range> &Rs, unsigned Offset) {
  return llvm::any_of(Rs, [&](const Range &R) { return R.contains(Offset); });
}

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

TEST_F(HostSliceTest, DeclarationWithSeveralDeclaratorsIsTakenWhole) {
  // Meta code uses only later declarators; Clang ends the first at its
  // initializer, so taking that range alone would lose the others.
  auto R = slice("template <int X, int Y> constexpr int f() { return X + Y; }\n"
                 "constexpr int a = 1, b = f<2, 3>(), c[2] = {4, 5};\n"
                 "typedef int word, *word_ptr;\n"
                 "int unrelated = 0, also = 1;\n"
                 "@meta int n = b + c[1];\n"
                 "@meta word_ptr p = nullptr;\n");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  std::vector<std::string> Decls;
  for (const SliceDecl &D : R->Declarations)
    Decls.push_back(text(D.Text));
  EXPECT_EQ(Decls,
            (std::vector<std::string>{
                "template <int X, int Y> constexpr int f() { return X + Y; }",
                "constexpr int a = 1, b = f<2, 3>(), c[2] = {4, 5};",
                "typedef int word, *word_ptr;"}));
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

  EXPECT_TRUE(R->Inactive.contains(offsetOf("@meta for")));
  EXPECT_TRUE(R->Inactive.contains(offsetOf("int arch1")));
  EXPECT_TRUE(R->Inactive.contains(offsetOf("int foo_off")));
  // -DFOO=2 keeps the first branch.
  EXPECT_FALSE(R->Inactive.contains(offsetOf("int foo_on")));
  EXPECT_FALSE(R->Inactive.contains(offsetOf("int before")));

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

TEST_F(HostSliceTest, HeaderWithOnlyIfCodegenIsADialectHeader) {
  Tmp.write("arch.cuh", "__device__ int f() {\n"
                        "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80)\n"
                        "    return 1;\n  return 0;\n}\n");
  Tmp.write("plain.cuh", "int codegen = 0; // if codegen in a comment\n");
  auto R = slice("#include \"plain.cuh\"\n#include \"arch.cuh\"\n");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->MetaHeaders.size(), 1u);
  EXPECT_EQ(R->MetaHeaders[0].Path, Tmp.path("arch.cuh"));
  EXPECT_EQ(R->MetaHeaders[0].Line, 2u);
  EXPECT_EQ(R->MetaHeaders[0].Col, 3u);
}

TEST_F(HostSliceTest, SkippedIncludesThatMayReachADialectHeaderAreNoted) {
  Tmp.write("inc/d.cuh", "#pragma once\n__device__ int f() {\n"
                         "  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80)\n"
                         "    return 1;\n  return 0;\n}\n");
  Tmp.write("plain.cuh", "int plain;\n");
  Tmp.write("relay.h", "#ifdef NEVER\n#include <d.cuh>\n#endif\n");
  Tmp.write("user.h", "#ifdef __CUDA_ARCH__\n#include \"inc/d.cuh\"\n#endif\n");
  auto Unfollowed = [&](std::string Code) {
    auto R = slice(std::move(Code), {"-I" + Tmp.path("inc")});
    EXPECT_TRUE(bool(R)) << llvm::toString(R.takeError());
    return R && R->UnfollowedInclude;
  };
  // Plain headers only, skipped or not: nothing for nvcc's passes to
  // check.
  EXPECT_FALSE(Unfollowed("#if 0\n#  include \"plain.cuh\"\n#endif\n"
                          "#include \"plain.cuh\"\n"));
  // A dialect header, as the preprocessor would find it.
  EXPECT_TRUE(Unfollowed("#ifdef __CUDA_ARCH__\n#include <d.cuh>\n#endif\n"));
  // Through a plain header that includes one, under any condition.
  EXPECT_TRUE(Unfollowed("#ifdef __CUDACC__\n#include \"relay.h\"\n#endif\n"));
  // In a skipped region of a user header the input includes.
  EXPECT_TRUE(Unfollowed("#include \"user.h\"\n"));
  // Named by a macro: followed to the header it names, or, where this pass
  // cannot tell, noted.
  EXPECT_TRUE(Unfollowed("#define K <d.cuh>\n#if 0\n#include K\n#endif\n"));
  EXPECT_FALSE(
      Unfollowed("#define K \"plain.cuh\"\n#if 0\n#include K\n#endif\n"));
  EXPECT_TRUE(Unfollowed("#if 0\n#include UNDEFINED_NAME\n#endif\n"));
}

TEST_F(HostSliceTest, IncludeNamedByAMacroThePassesDefineApartIsNoted) {
  Tmp.write("plain.cuh", "int plain;\n");
  Tmp.write("names.h", "#ifdef __CUDA_ARCH__\n#define K \"plain.cuh\"\n"
                       "#else\n#define K \"plain.cuh\"\n#endif\n");
  auto R = slice("#include \"names.h\"\n#include K\n");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->UnfollowedInclude);
  R = slice("#define K \"plain.cuh\"\n#include K\n");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_FALSE(R->UnfollowedInclude);
}

TEST_F(HostSliceTest, DialectHeadersOfTheCommandLineAndOfUserSystemDirs) {
  Tmp.write("sys/lib.cuh", "#pragma once\n@meta int lib_n = 2;\n");
  Tmp.write("pre.cuh", "@meta int pre_n = 1;\n");
  auto R = slice("#include <lib.cuh>\n", {"-isystem" + Tmp.path("sys"),
                                          "-include" + Tmp.path("pre.cuh")});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // Found through the user's -isystem: spliced as any dialect header.
  ASSERT_EQ(R->MetaHeaders.size(), 1u);
  EXPECT_EQ(R->MetaHeaders[0].Path, Tmp.path("sys/lib.cuh"));
  EXPECT_EQ(R->MetaHeaders[0].IncludeOffset, offsetOf("<lib.cuh>"));
  // Read through -include: nvcc would read it first, as it is.
  ASSERT_EQ(R->PreIncludedMetaHeaders.size(), 1u);
  EXPECT_EQ(R->PreIncludedMetaHeaders[0].PreIncluded, Tmp.path("pre.cuh"));
  EXPECT_EQ(R->PreIncludedMetaHeaders[0].Line, 1u);
}

TEST_F(HostSliceTest, AHeaderLeavingAConditionalOpenLeavesTheInputsAlone) {
  // Conditionals are followed in user headers too; one a header leaves
  // open (an error) must not take the place of the input's own.
  Tmp.write("open.h", "#if 1\nint x;\n");
  auto R = slice("#ifndef __CUDA_ARCH__\n#include \"open.h\"\nint y;\n"
                 "#endif\n");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(covers(R->ArchConditional, offsetOf("int y")));
}

TEST(DialectScopeTest, TheUsersOwnSystemDirectoriesOnly) {
  HostSliceOptions Opts;
  Opts.Toolkit = CudaToolkit::find(METACU_CUDA_ROOT);
  ASSERT_FALSE(Opts.Toolkit.IncludeDirs.empty());
  std::string Toolkit = Opts.Toolkit.IncludeDirs.front();
  // The toolkit's directory given again, as CMake's CUDA::cudart does.
  Opts.Flags.Args = {"-isystem/opt/lib/include/", "-isystem" + Toolkit};
  DialectScope Scope(Opts);
  EXPECT_TRUE(Scope.covers("/src/kernels.cuh", /*System=*/false));
  EXPECT_TRUE(Scope.covers("/opt/lib/include/lib/copy.cuh", true));
  EXPECT_FALSE(Scope.covers("/opt/lib/include2/copy.cuh", true));
  EXPECT_FALSE(Scope.covers(Toolkit + "/cuda_runtime.h", true));
  EXPECT_FALSE(Scope.covers("/usr/include/stdio.h", true));
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

TEST(HostSlicePreambleTest, APreambleOfTheLeadingIncludesChangesNothing) {
  // A type of the implicit cuda_runtime.h, a macro of a user header the
  // preamble holds, the files read in their order: alike without a
  // preamble, when it is built and when it is reused.
  TestTU TU("#include <vector>\n"
            "[[#include \"tile.h\"]]\n"
            "@meta dim3 block(TILE, 16);\n");
  TU.write("tile.h", "#pragma once\n#define TILE 16\n");
  HostSliceOptions Opts = TestTU::pipelineOptions();
  const ScanResult &Scan = TU.scanned();
  auto Plain = sliceHost(TU.file(), Scan, metaIdentifiers(Scan), Opts);
  ASSERT_TRUE(bool(Plain)) << llvm::toString(Plain.takeError());
  EXPECT_TRUE(Plain->NeedsCudaRuntime);
  Preambles Cache;
  Opts.Precompiled = &Cache;
  for (int Run = 0; Run < 2; ++Run) {
    auto R = sliceHost(TU.file(), Scan, metaIdentifiers(Scan), Opts);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    EXPECT_EQ(R->Files, Plain->Files);
    EXPECT_EQ(R->NeedsCudaRuntime, Plain->NeedsCudaRuntime);
    ASSERT_EQ(R->NeededIncludes.size(), 1u);
    EXPECT_EQ(TU.text(R->NeededIncludes[0]), TU.text(TU.range()));
    EXPECT_EQ(R->Visible.size(), Plain->Visible.size());
  }
}

TEST(HostSlicePreambleTest, WhatTheCallbacksSawOfThePreamblesHeadersStands) {
  // A dialect header and a header name that differs between nvcc's passes,
  // both from headers the preamble holds: found when it is built and when
  // it is reused, as without one.
  TestTU TU("#include \"names.h\"\n"
            "#include \"dialect.h\"\n"
            "#define AFTER_THE_PREAMBLE\n"
            "#include NAMED\n"
            "@meta int n = 1;\n");
  TU.write("names.h", "#pragma once\n#ifdef __CUDACC__\n#define NAMED "
                      "\"a.h\"\n#else\n#define NAMED \"b.h\"\n#endif\n");
  TU.write("a.h", "\n");
  TU.write("b.h", "\n");
  TU.write("dialect.h", "#pragma once\n@meta int d = 2;\n");
  HostSliceOptions Opts = TestTU::pipelineOptions();
  const ScanResult &Scan = TU.scanned();
  auto Plain = sliceHost(TU.file(), Scan, metaIdentifiers(Scan), Opts);
  ASSERT_TRUE(bool(Plain)) << llvm::toString(Plain.takeError());
  EXPECT_TRUE(Plain->UnfollowedInclude);
  ASSERT_EQ(Plain->MetaHeaders.size(), 1u);
  Preambles Cache;
  Opts.Precompiled = &Cache;
  for (int Run = 0; Run < 2; ++Run) {
    auto R = sliceHost(TU.file(), Scan, metaIdentifiers(Scan), Opts);
    ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
    EXPECT_EQ(R->Files, Plain->Files);
    EXPECT_TRUE(R->UnfollowedInclude);
    ASSERT_EQ(R->MetaHeaders.size(), 1u);
    EXPECT_EQ(R->MetaHeaders[0].Path, Plain->MetaHeaders[0].Path);
    EXPECT_EQ(R->MetaHeaders[0].IncludeOffset,
              Plain->MetaHeaders[0].IncludeOffset);
    EXPECT_EQ(R->MetaHeaders[0].Line, Plain->MetaHeaders[0].Line);
  }
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
  EXPECT_TRUE(Off->Inactive.contains(TU.point("fast")));
  EXPECT_FALSE(Off->Inactive.contains(TU.point("slow")));
  EXPECT_FALSE(Off->Inactive.contains(TU.point("notfast")));
  auto On = TU.slice({"-DFAST"});
  ASSERT_TRUE(bool(On)) << llvm::toString(On.takeError());
  EXPECT_FALSE(On->Inactive.contains(TU.point("fast")));
  EXPECT_TRUE(On->Inactive.contains(TU.point("slow")));
  EXPECT_TRUE(On->Inactive.contains(TU.point("notfast")));
  EXPECT_TRUE(On->ArchConditional.empty());
}

TEST(HostSliceRegionTest, ArchConditionalThroughElifAndIfdef) {
  TestTU TU("#if defined(FOO)\n"
            "int $a^a;\n"
            "#$elif^elif __CUDA_ARCH__ >= 700\n"
            "int $b^b;\n"
            "#else\n"
            "int $e^e;\n"
            "#endif\n"
            "#$if2^ifdef __CUDA_ARCH__\n"
            "int $c^c;\n"
            "#endif\n"
            "#if defined(BAR)\n"
            "int $d^d;\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // From the first directive that tests it to the #endif: a branch before
  // it (a) is chosen alike in every pass.
  ASSERT_EQ(R->ArchConditional.size(), 2u);
  EXPECT_FALSE(covers(R->ArchConditional, TU.point("a")));
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("b")));
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("e")));
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("c")));
  EXPECT_FALSE(covers(R->ArchConditional, TU.point("d")));
  EXPECT_EQ(R->ArchConditional[0].Begin, TU.point("elif"));
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
  EXPECT_TRUE(covers(R->CompilerConditional, TU.point("cc")));
  EXPECT_TRUE(covers(R->CompilerConditional, TU.point("nv")));
  EXPECT_FALSE(covers(R->CompilerConditional, TU.point("plain")));
  // C++ mode defines neither.
  EXPECT_TRUE(R->Inactive.contains(TU.point("cc")));
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
  EXPECT_FALSE(R->Inactive.contains(TU.point("on")));
  EXPECT_TRUE(R->Inactive.contains(TU.point("off")));
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

//===--- Declarations in namespaces, aliases, templates -------------------===//

/// The text of each #include line the slice needs, in order.
std::vector<std::string> includes(const TestTU &TU, const HostSliceResult &R) {
  std::vector<std::string> Out;
  for (const Range &I : R.NeededIncludes)
    Out.push_back(TU.text(I));
  return Out;
}

/// The texts of the unnamed ranges marked in \p TU, in order.
std::vector<std::string> marked(const TestTU &TU) {
  std::vector<std::string> Out;
  for (const Range &Rg : TU.ranges())
    Out.push_back(TU.text(Rg));
  return Out;
}

TEST(HostSliceDeclTest, QualifiedNameSelectsTheDeclarationInItsNamespace) {
  TestTU TU("namespace cfg {\n"
            "[[const int table[] = {1, 2};]]\n"
            "const int other = 3;\n"
            "}\n"
            "@meta int n = cfg::table[0];\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // The declaration alone, not the namespace around it.
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, QualifierPicksOneOfTwoNamespaces) {
  TestTU TU("namespace a { const int n = 1; }\n"
            "namespace b { [[const int n = 2;]] }\n"
            "@meta int x = b::n;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, NestedNamespacesMatchOnTheInnermostQualifier) {
  TestTU TU("namespace outer::inner {\n"
            "[[const int table = 7;]]\n"
            "}\n"
            "namespace outer { const int table = 8; }\n"
            "@meta int n = outer::inner::table;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, TypedefsAndAliasesPullInWhatTheyName) {
  TestTU TU("[[struct config { int a; };]]\n"
            "[[typedef int index_t;]]\n"
            "[[using config_t = config;]]\n"
            "using unused_t = float;\n"
            "@meta index_t i = 0;\n"
            "@meta config_t c{};\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
  // The aggregate the alias names can be spelled.
  ASSERT_EQ(R->Records.size(), 1u);
  EXPECT_EQ(R->Records[0].QualifiedName, "config");
}

TEST(HostSliceDeclTest, ClassAndFunctionTemplatesAreSelectedWhole) {
  TestTU TU("[[template <int N> struct tile { static constexpr int size = N * "
            "N; };]]\n"
            "[[template <typename T> T twice(T x) { return x + x; }]]\n"
            "template <typename T> T thrice(T x) { return 3 * x; }\n"
            "@meta int s = tile<4>::size + twice(3);\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // From the template header to the end of the body.
  EXPECT_EQ(declarations(TU, *R), marked(TU));
  ASSERT_EQ(R->Declarations.size(), 2u);
  EXPECT_EQ(R->Declarations[1].BodyBegin, 0u);
  // A class template is not one aggregate the generator can spell.
  EXPECT_TRUE(R->Records.empty());
}

TEST(HostSliceDeclTest, ExplicitSpecializationsGoWithTheirTemplate) {
  TestTU TU("[[template <int N> struct traits;]]\n"
            "[[template <> struct traits<1> { static constexpr int v = 10; "
            "};]]\n"
            "@meta int v = traits<1>::v;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, ConstexprFunctionBodiesAreParsedForDependencies) {
  // Clang does not skip a constexpr body, so what it calls is found.
  TestTU TU("[[constexpr int base() { return 2; }]]\n"
            "[[constexpr int scale(int x) { return x * base(); }]]\n"
            "constexpr int unrelated() { return 5; }\n"
            "@meta int n = scale(4);\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, MapTableAndItsValueStructAreSelectedInOrder) {
  TestTU TU("[[#include <map>]]\n"
            "[[struct entry { int nt; int vt; };]]\n"
            "[[const std::map<int, entry> table{{80, {128, 4}}};]]\n"
            "@meta int n = table.at(80).nt;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  std::vector<std::string> Want = marked(TU);
  EXPECT_EQ(includes(TU, *R), std::vector<std::string>{Want[0]});
  EXPECT_EQ(declarations(TU, *R), (std::vector<std::string>{Want[1], Want[2]}));
  ASSERT_EQ(R->Records.size(), 1u);
  EXPECT_EQ(R->Records[0].QualifiedName, "entry");
  EXPECT_EQ(R->Records[0].After, R->Declarations[0].Text.End);
}

TEST(HostSliceDeclTest, StaticDataMemberSelectsItsClass) {
  TestTU TU("[[struct limits { static constexpr int max_threads = 1024; };]]\n"
            "@meta int m = limits::max_threads;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, ForwardDeclarationAndDefinitionBothGo) {
  TestTU TU("[[int f(int);]]\n"
            "[[struct node;]]\n"
            "[[struct node { int v; };]]\n"
            "[[int f(int x) { return x; }]]\n"
            "@meta int n = f(node{2}.v);\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, ExternCDeclarationsAreFoundInsideTheBlock) {
  TestTU TU("extern \"C\" {\n"
            "[[int c_fn(int);]]\n"
            "int c_other(int);\n"
            "}\n"
            "@meta auto p = &c_fn;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, MemberNamesDoNotSelectNamespaceDeclarations) {
  TestTU TU("const int width = 1;\n"
            "[[struct shape { int width; };]]\n"
            "[[const shape box{3};]]\n"
            "@meta int w = box.width;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // 'width' after '.' is a member, not the global.
  EXPECT_EQ(declarations(TU, *R), marked(TU));
}

TEST(HostSliceDeclTest, ASyntaxErrorInAUsedDeclarationIsLeftToTheGenerator) {
  // C++ mode sees errors in CUDA code all the time; only fatal ones stop
  // the slice. The declaration is still selected, to fail where it is
  // written.
  TestTU TU("int before;\n"
            "[[const int table[] = {1, 2 3};]]\n"
            "@meta int n = table[0];\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  // It starts on its own line, where the generator's error will point.
  ASSERT_EQ(R->Declarations.size(), 1u);
  EXPECT_EQ(R->Declarations[0].Text.Begin, TU.range().Begin);
}

//===--- Enumerations -----------------------------------------------------===//

TEST(HostSliceReflectTest, UnscopedEnumIsSelectedThroughItsEnumerators) {
  TestTU TU("[[enum color { red, green };]]\n"
            "enum shade { light, dark };\n"
            "@meta int c = green;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
  ASSERT_EQ(R->Enums.size(), 1u);
  EXPECT_EQ(R->Enums[0].QualifiedName, "color");
  EXPECT_FALSE(R->Enums[0].Scoped);
  EXPECT_EQ(R->Enums[0].After, R->Declarations[0].Text.End);
}

TEST(HostSliceReflectTest, EnumeratorQualifiedByTheNamespaceSelectsItsEnum) {
  TestTU TU("namespace hw {\n"
            "[[enum unit { sm, tc };]]\n"
            "}\n"
            "@meta int u = hw::tc;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
  ASSERT_EQ(R->Enums.size(), 1u);
  EXPECT_EQ(R->Enums[0].QualifiedName, "hw::unit");
}

TEST(HostSliceReflectTest, AnonymousEnumIsSelectedButNotReflected) {
  TestTU TU("[[enum { block = 128 };]]\n"
            "@meta int b = block;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(declarations(TU, *R), marked(TU));
  // Nothing to name in '@meta for enum'.
  EXPECT_TRUE(R->Enums.empty());
}

TEST(HostSliceReflectTest, EnumClassInNestedNamespaceHasItsQualifiedName) {
  TestTU TU("namespace a { namespace b {\n"
            "enum class mode { fast, exact };\n"
            "} }\n"
            "@meta a::b::mode m = a::b::mode::exact;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Enums.size(), 1u);
  EXPECT_EQ(R->Enums[0].QualifiedName, "a::b::mode");
  EXPECT_TRUE(R->Enums[0].Scoped);
  EXPECT_FALSE(R->Enums[0].FromHeader);
  EXPECT_EQ(R->Enums[0].Enumerators,
            (std::vector<std::string>{"fast", "exact"}));
}

TEST(HostSliceReflectTest, HeaderTypesFollowTheIncludeLineThatBringsThemIn) {
  TestTU TU("int x;\n"
            "$inc^#include \"outer.h\"\n"
            "@meta hw::spec s{};\n");
  TU.write("outer.h", "#pragma once\n#include \"hw.h\"\n");
  TU.write("hw.h", "#pragma once\n"
                   "namespace hw {\n"
                   "enum class unit { sm, tc };\n"
                   "struct spec { int regs; };\n"
                   "}\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Records.size(), 1u);
  EXPECT_EQ(R->Records[0].QualifiedName, "hw::spec");
  EXPECT_TRUE(R->Records[0].FromHeader);
  // The main-file line, though the type sits in a header of a header.
  EXPECT_EQ(R->Records[0].After, TU.point("inc"));
  // Every enumeration of a needed header, used or not.
  ASSERT_EQ(R->Enums.size(), 1u);
  EXPECT_EQ(R->Enums[0].QualifiedName, "hw::unit");
  EXPECT_TRUE(R->Enums[0].FromHeader);
  EXPECT_EQ(R->Enums[0].After, TU.point("inc"));
}

TEST(HostSliceReflectTest, TypesOfAnUnneededHeaderAreNotReflected) {
  TestTU TU("#include \"types.h\"\n"
            "@meta int n = 1;\n");
  TU.write("types.h", "#pragma once\n"
                      "enum class unit { sm, tc };\n"
                      "struct spec { int regs; };\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->NeededIncludes.empty());
  EXPECT_TRUE(R->Enums.empty());
  EXPECT_TRUE(R->Records.empty());
}

TEST(HostSliceReflectTest, ProtectedOrUnnamedFieldsMakeARecordUnspellable) {
  TestTU TU("struct guarded { protected: int p; public: int q; };\n"
            "struct bits { int a : 3; int : 5; int b; };\n"
            "struct open { int a; static const int s = 1; };\n"
            "@meta guarded g{};\n"
            "@meta bits b{};\n"
            "@meta open o{};\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Records.size(), 1u);
  EXPECT_EQ(R->Records[0].QualifiedName, "open");
  // A static member is no field.
  EXPECT_EQ(R->Records[0].Fields, std::vector<std::string>{"a"});
}

//===--- Includes and macros ----------------------------------------------===//

TEST(HostSliceIncludeTest, MainFileMacrosNeedNoInclude) {
  TestTU TU("#include \"other.h\"\n"
            "#define TILE 16\n"
            "@meta int t = TILE;\n");
  TU.write("other.h", "#pragma once\nint other;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->NeededIncludes.empty());
  EXPECT_TRUE(R->Declarations.empty());
}

TEST(HostSliceIncludeTest, CommandLineMacrosNeedNoInclude) {
  TestTU TU("#include \"other.h\"\n"
            "@meta int t = TILE;\n");
  TU.write("other.h", "#pragma once\nint other;\n");
  auto R = TU.slice({"-DTILE=8"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->NeededIncludes.empty());
  EXPECT_FALSE(R->NeedsCudaRuntime);
}

TEST(HostSliceIncludeTest, FunctionLikeMacroNeedsItsHeader) {
  TestTU TU("#include \"a.h\"\n"
            "[[#include \"sqr.h\"]]\n"
            "@meta int s = SQR(3);\n");
  TU.write("a.h", "#pragma once\nint a;\n");
  TU.write("sqr.h", "#pragma once\n#define SQR(x) ((x) * (x))\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(includes(TU, *R), marked(TU));
}

TEST(HostSliceIncludeTest, SystemHeaderProvidingAStdTypeIsNeeded) {
  TestTU TU("#include <vector>\n"
            "[[#include <array>]]\n"
            "@meta std::array<int, 2> a{};\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(includes(TU, *R), marked(TU));
  // Standard types are not reflected.
  EXPECT_TRUE(R->Records.empty());
  EXPECT_TRUE(R->Enums.empty());
}

TEST(HostSliceIncludeTest, QualifiedNameNeedsOnlyThatNamespacesHeader) {
  TestTU TU("#include \"other.h\"\n"
            "[[#include \"lib.h\"]]\n"
            "@meta int t = lib::tile;\n");
  TU.write("lib.h",
           "#pragma once\nnamespace lib { constexpr int tile = 4; }\n");
  TU.write("other.h",
           "#pragma once\nnamespace other { constexpr int tile = 8; }\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(includes(TU, *R), marked(TU));
}

TEST(HostSliceIncludeTest, UnqualifiedNameDoesNotReachIntoHeaderNamespaces) {
  // Only the global namespace of a header answers an unqualified name.
  TestTU TU("#include \"lib.h\"\n"
            "@meta int t = tile;\n");
  TU.write("lib.h",
           "#pragma once\nnamespace lib { constexpr int tile = 4; }\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->NeededIncludes.empty());
}

//===--- Regions ----------------------------------------------------------===//

TEST(HostSliceRegionTest, IfZeroIsInactiveAndItsElseIsNot) {
  TestTU TU("#if 0\n"
            "int $off^off;\n"
            "#else\n"
            "int $on^on;\n"
            "#endif\n"
            "int $after^after;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Inactive.ranges().size(), 1u);
  EXPECT_TRUE(R->Inactive.contains(TU.point("off")));
  EXPECT_FALSE(R->Inactive.contains(TU.point("on")));
  EXPECT_FALSE(R->Inactive.contains(TU.point("after")));
  EXPECT_TRUE(R->ArchConditional.empty());
  EXPECT_TRUE(R->CompilerConditional.empty());
}

TEST(HostSliceRegionTest, ValuedDefineChoosesAnElifBranch) {
  TestTU TU("#if LEVEL >= 2\n"
            "int $two^two;\n"
            "#elif LEVEL == 1\n"
            "int $one^one;\n"
            "#else\n"
            "int $none^none;\n"
            "#endif\n");
  auto R = TU.slice({"-DLEVEL=1"});
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->Inactive.contains(TU.point("two")));
  EXPECT_FALSE(R->Inactive.contains(TU.point("one")));
  EXPECT_TRUE(R->Inactive.contains(TU.point("none")));
}

TEST(HostSliceRegionTest, ArchBlockSpansFromIfToEndif) {
  TestTU TU("int before;\n"
            "#$b^if __CUDA_ARCH__ >= 800\n"
            "int fast;\n"
            "#$e^endif\n"
            "int after;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->ArchConditional.size(), 1u);
  EXPECT_EQ(R->ArchConditional[0].Begin, TU.point("b"));
  EXPECT_EQ(R->ArchConditional[0].End, TU.point("e"));
}

TEST(HostSliceRegionTest, ArchThroughAChainOfAliasMacros) {
  TestTU TU("#define ARCH __CUDA_ARCH__\n"
            "#define SM ARCH\n"
            "#if SM >= 900\n"
            "int $hopper^hopper;\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->ArchConditional.size(), 1u);
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("hopper")));
}

TEST(HostSliceRegionTest, ArchAliasFromAHeaderCounts) {
  TestTU TU("#include \"arch.h\"\n"
            "#if MY_ARCH >= 800\n"
            "int $a^a;\n"
            "#endif\n");
  TU.write("arch.h", "#pragma once\n#define MY_ARCH __CUDA_ARCH__\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("a")));
}

TEST(HostSliceRegionTest, FeatureMacroDefinedUnderArchMakesLaterTestsArch) {
  TestTU TU("#if defined(HAS_ASYNC)\n"
            "int $early^early;\n"
            "#endif\n"
            "#if __CUDA_ARCH__ >= 800\n"
            "#define HAS_ASYNC 1\n"
            "#endif\n"
            "#if defined(HAS_ASYNC) && HAS_ASYNC\n"
            "int $late^late;\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("late")));
  // Before the arch block defines it, the name is an ordinary one.
  EXPECT_FALSE(covers(R->ArchConditional, TU.point("early")));
  EXPECT_EQ(R->ArchConditional.size(), 2u);
}

TEST(HostSliceRegionTest, NestedBlocksInsideAnArchBlockAreNotListedApart) {
  TestTU TU("#$b^ifdef __CUDA_ARCH__\n"
            "#if FOO\n"
            "int $x^x;\n"
            "#endif\n"
            "#else\n"
            "#ifdef BAR\n"
            "int $y^y;\n"
            "#endif\n"
            "#$e^endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->ArchConditional.size(), 1u);
  EXPECT_EQ(R->ArchConditional[0].Begin, TU.point("b"));
  EXPECT_EQ(R->ArchConditional[0].End, TU.point("e"));
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("x")));
  EXPECT_TRUE(covers(R->ArchConditional, TU.point("y")));
}

TEST(HostSliceRegionTest, ArchBlockInsideAnOrdinaryBlockIsTheInnerOneOnly) {
  TestTU TU("#ifndef FOO\n"
            "int $outer^outer;\n"
            "#$b^if __CUDA_ARCH__ >= 700\n"
            "int inner;\n"
            "#$e^endif\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->ArchConditional.size(), 1u);
  EXPECT_EQ(R->ArchConditional[0].Begin, TU.point("b"));
  EXPECT_EQ(R->ArchConditional[0].End, TU.point("e"));
  EXPECT_FALSE(covers(R->ArchConditional, TU.point("outer")));
}

TEST(HostSliceRegionTest, NvccVersionAndNvccTestsAreCompilerConditional) {
  TestTU TU("#ifndef __NVCC__\n"
            "int $host^host;\n"
            "#endif\n"
            "#if __CUDACC_VER_MAJOR__ >= 12\n"
            "int $ver^ver;\n"
            "#endif\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->CompilerConditional.size(), 2u);
  EXPECT_TRUE(covers(R->CompilerConditional, TU.point("host")));
  EXPECT_TRUE(covers(R->CompilerConditional, TU.point("ver")));
  EXPECT_TRUE(R->ArchConditional.empty());
}

//===--- Errors and files -------------------------------------------------===//

TEST(HostSliceErrorTest, MissingHeaderInAnInactiveRegionIsNoError) {
  TestTU TU("#if 0\n"
            "#include \"nowhere.h\"\n"
            "#endif\n"
            "#ifdef __CUDA_ARCH__\n"
            "#include <sm_only.h>\n"
            "#endif\n"
            "@meta int n = 1;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Files.size() > 0 ? R->Files[0] : "", TU.path("k.cu"));
}

TEST(HostSliceErrorTest, MissingNestedHeaderIsAnErrorAtTheMainFileInclude) {
  TestTU TU("int a;\n"
            "$inc^#include \"outer.h\"\n"
            "@meta int n = a;\n");
  TU.write("outer.h", "#pragma once\n\n#include \"gone.h\"\n");
  ErrorAt E = errorOf(TU.slice().takeError());
  EXPECT_EQ(TU.file().lineStart(E.Offset), TU.point("inc"));
  EXPECT_NE(E.Message.find("'gone.h' file not found"), std::string::npos)
      << E.Message;
}

TEST(HostSliceFilesTest, AHeaderIncludedTwiceWithoutGuardIsListedOnce) {
  TestTU TU("#define X(n) int n;\n"
            "#include \"list.def\"\n"
            "#undef X\n"
            "#define X(n) int n##_2;\n"
            "#include \"list.def\"\n");
  TU.write("list.def", "X(a)\nX(b)\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(llvm::count(R->Files, TU.path("list.def")), 1);
}

TEST(HostSliceFilesTest, HeadersOfInactiveRegionsAreNotRead) {
  TestTU TU("#ifdef NEVER\n#include \"skipped.h\"\n#endif\n");
  TU.write("skipped.h", "int s;\n");
  auto R = TU.slice();
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(llvm::count(R->Files, TU.path("skipped.h")), 0);
  auto On = TU.slice({"-DNEVER"});
  ASSERT_TRUE(bool(On)) << llvm::toString(On.takeError());
  EXPECT_EQ(llvm::count(On->Files, TU.path("skipped.h")), 1);
}

} // namespace
