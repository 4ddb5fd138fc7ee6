//===- HostSliceTest.cpp - What meta code needs from ordinary code --------===//
#include "expand/HostSlice.h"
#include "TempDir.h"
#include "toolchain/CudaToolkit.h"
#include "support/Diagnostic.h"
#include "expand/MetaNames.h"

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

} // namespace
