//===- PreludePchTest.cpp - The toolkit's prelude of a parse, precompiled -===//
#include "migrate/PreludePch.h"
#include "AuditFixtures.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include <chrono>
#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// A prelude of the shapes the callbacks learn from: a macro of
/// __CUDA_ARCH__ and one of that macro (derived and aliases through
/// another), macros of an execution space (one through another), one that
/// names a derived macro after __CUDA_ARCH__, a test of whether a macro is
/// defined, and a name in a macro's arguments in code (which only a parse
/// expands).
const char *const Prelude = "#define TK_WRAP(x) x\n"
                            "#define TK_ARCH __CUDA_ARCH__\n"
                            "#define TK_ARCH_AT_LEAST(v) (TK_ARCH >= (v))\n"
                            "#define TK_BOTH (__CUDA_ARCH__ + TK_ARCH)\n"
                            "#define TK_DEV __device__\n"
                            "#define TK_HD __host__ TK_DEV\n"
                            "#define TK_VERSION 12\n"
                            "#ifdef TK_VERSION\n"
                            "#endif\n"
                            "int TK_WRAP(USER_ARCH);\n";

const char *const Code = "#define USER_ARCH __CUDA_ARCH__\n"
                         "TK_DEV int f() {\n"
                         "#if TK_ARCH >= 700\n"
                         "  return USER_ARCH;\n"
                         "#else\n"
                         "  return 0;\n"
                         "#endif\n"
                         "}\n";

class PreludePchTest : public PassTest {
protected:
  void SetUp() override {
    Path = Tmp.write("k.cu", Code);
    // The prelude: the -include of cuda_runtime.h finds this one first.
    Tmp.write("sys/cuda_runtime.h", Prelude);
    Flags.Args = {"-isystem" + Tmp.path("sys")};
  }

  /// The facts of a parse of k.cu in the host pass, its prelude kept in
  /// \p Cache (empty: nowhere), as text.
  std::string parse(llvm::StringRef Cache) {
    Facts Out;
    // A file manager of its own: the tests change headers between parses.
    auto Fresh = llvm::makeIntrusiveRefCnt<clang::FileManager>(
        clang::FileSystemOptions());
    PassSources Sources(*Fresh);
    if (llvm::Error Err =
            runPass(Path, CudaToolkit::find(METACU_CUDA_ROOT), Flags,
                    /*Pass=*/0, /*Parse=*/true, Out, Sources, Cache))
      ADD_FAILURE() << llvm::toString(std::move(Err));
    std::string S;
    auto Names = [&](const char *What, const llvm::StringSet<> &Set) {
      std::vector<std::string> Sorted;
      for (const auto &E : Set)
        Sorted.push_back(E.getKey().str());
      llvm::sort(Sorted);
      S += What;
      for (const std::string &N : Sorted)
        S += " " + N;
      S += "\n";
    };
    Names("named:", Out.NamedInMacros);
    Names("derived:", Out.Derived);
    Names("aliases:", Out.Aliases);
    std::map<std::string, unsigned> Spaces;
    for (const auto &E : Out.Spaces)
      Spaces[E.getKey().str()] = E.getValue();
    for (const auto &[N, V] : Spaces)
      S += "space " + N + " " + std::to_string(V) + "\n";
    for (const auto &[N, V] : Out.TestedValues)
      S += "value " + N + " '" + V + "'\n";
    for (const std::string &N : Out.DefinedTests)
      S += "defined " + N + "\n";
    for (const auto &[K, G] : Out.Groups)
      S += "group " + std::to_string(K.second) + " placed " +
           std::to_string(int(G.Place)) + " space " + std::to_string(G.Space) +
           "\n";
    return S;
  }

  /// The precompiled headers in \p Cache (those whose name starts with
  /// \p Kind).
  static unsigned headers(llvm::StringRef Cache, llvm::StringRef Kind = "",
                          llvm::StringRef Suffix = ".pch") {
    unsigned N = 0;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Cache, EC), End; !EC && It != End;
         It.increment(EC))
      N += llvm::StringRef(It->path()).ends_with(Suffix) &&
           llvm::sys::path::filename(It->path()).starts_with(Kind);
    return N;
  }

  CompileFlags Flags;
};

TEST_F(PreludePchTest, AParseOfThePrecompiledPreludeLearnsWhatItsTextTeaches) {
  std::string Text = parse("");
  ASSERT_NE(Text.find(" USER_ARCH"), std::string::npos) << Text;
  ASSERT_NE(Text.find("value TK_VERSION '12'"), std::string::npos) << Text;
  ASSERT_NE(Text.find("space TK_HD 3"), std::string::npos) << Text;
  ASSERT_NE(Text.find(" TK_ARCH_AT_LEAST"), std::string::npos) << Text;
  std::string Cache = Tmp.path("cache");
  EXPECT_EQ(parse(Cache), Text) << "the first parse reads the text";
  EXPECT_EQ(headers(Cache), 0u);
  EXPECT_EQ(parse(Cache), Text) << "the second builds the header, then uses it";
  EXPECT_EQ(headers(Cache), 1u);
  EXPECT_EQ(parse(Cache), Text) << "the third only uses it";
}

TEST_F(PreludePchTest, AChangedPreludeHeaderIsBuiltAgain) {
  std::string Cache = Tmp.path("cache");
  parse(Cache);
  parse(Cache);
  ASSERT_EQ(headers(Cache), 1u);
  std::string Header =
      Tmp.write("sys/cuda_runtime.h", llvm::StringRef(Prelude).str() +
                                          "#define TK_LATER 1\n"
                                          "#ifdef TK_LATER\n"
                                          "#endif\n");
  int FD;
  ASSERT_FALSE(llvm::sys::fs::openFileForWrite(
      Header, FD, llvm::sys::fs::CD_OpenExisting, llvm::sys::fs::OF_Append));
  ASSERT_FALSE(llvm::sys::fs::setLastAccessAndModificationTime(
      FD, std::chrono::system_clock::now() + std::chrono::hours(1)));
  llvm::sys::Process::SafelyCloseFileDescriptor(FD);
  std::string Text = parse("");
  ASSERT_NE(Text.find("defined TK_LATER"), std::string::npos) << Text;
  EXPECT_EQ(parse(Cache), Text);
}

TEST_F(PreludePchTest, AHeaderThatWouldShadowThePreludeMeansABuild) {
  std::string Cache = Tmp.path("cache");
  Flags.Args.insert(Flags.Args.begin(), "-I" + Tmp.path("user"));
  ASSERT_FALSE(llvm::sys::fs::create_directories(Tmp.path("user")));
  parse(Cache);
  parse(Cache);
  ASSERT_EQ(headers(Cache), 1u);
  // A user's header of the same name, found first from now on: its text
  // is the user's, which the callbacks read as such.
  Tmp.write("user/cuda_runtime.h", "#define TK_USER __CUDA_ARCH__\n");
  std::string Text = parse("");
  ASSERT_NE(Text.find("TK_USER"), std::string::npos) << Text;
  EXPECT_EQ(parse(Cache), Text);
}

TEST_F(PreludePchTest, APreludeWithAUserFileIsNotPrecompiled) {
  std::string Cache = Tmp.path("cache");
  Tmp.write("user/cuda_runtime.h", Prelude);
  Flags.Args = {"-I" + Tmp.path("user")};
  std::string Text = parse("");
  EXPECT_EQ(parse(Cache), Text);
  EXPECT_EQ(parse(Cache), Text);
  EXPECT_EQ(parse(Cache), Text);
  EXPECT_EQ(headers(Cache), 0u);
}

TEST_F(PreludePchTest, ACacheThatCannotBeWrittenMeansNone) {
  std::string Cache = Tmp.write("file", "") + "/cache";
  std::string Text = parse("");
  EXPECT_EQ(parse(Cache), Text);
  EXPECT_EQ(parse(Cache), Text);
  EXPECT_FALSE(llvm::sys::fs::exists(Cache));
}

/// A unit that includes a system header first, one of the shapes above.
const char *const LeadingUnit = "// a unit\n"
                                "/* its headers */\n"
                                "#include <lead.h> // first\n"
                                "#include \"user.h\"\n"
                                "LEAD_DEV int g() {\n"
                                "#if LEAD_ARCH >= 700\n"
                                "  return 1;\n"
                                "#else\n"
                                "  return 0;\n"
                                "#endif\n"
                                "}\n";

const char *const Lead = "#pragma once\n"
                         "#define LEAD_ARCH __CUDA_ARCH__\n"
                         "#define LEAD_DEV __device__\n";

TEST_F(PreludePchTest, AUnitsLeadingSystemHeadersArePrecompiledWithThePrelude) {
  Path = Tmp.write("u.cu", LeadingUnit);
  Tmp.write("user.h", "int user;\n");
  Tmp.write("sys/lead.h", Lead);
  std::string Text = parse("");
  ASSERT_NE(Text.find(" LEAD_ARCH"), std::string::npos) << Text;
  ASSERT_NE(Text.find("space LEAD_DEV"), std::string::npos) << Text;
  std::string Cache = Tmp.path("cache");
  EXPECT_EQ(parse(Cache), Text) << "the first parse reads the text";
  EXPECT_EQ(parse(Cache), Text) << "the second builds the header";
  EXPECT_EQ(headers(Cache, "preamble-"), 1u);
  EXPECT_EQ(headers(Cache, "audit-prelude-"), 0u)
      << "the prelude with the unit's header is the one built";
  EXPECT_EQ(parse(Cache), Text) << "the third only uses it";
}

TEST_F(PreludePchTest, AUnitsLeadingHeaderWithoutAGuardStaysText) {
  // <again.h> has no guard: the unit's own line would read it a second
  // time after the prelude. The prelude holds <lead.h> only.
  Path = Tmp.write("u.cu", "#include <lead.h>\n#include <again.h>\n" +
                               std::string(LeadingUnit));
  Tmp.write("user.h", "int user;\n");
  Tmp.write("sys/lead.h", Lead);
  // Its #ifndef is no guard (a definition follows the #endif): read again,
  // it would test AGAIN_H as defined, which the text never did.
  Tmp.write("sys/again.h", "#ifndef AGAIN_H\n"
                           "#define AGAIN_H\n"
                           "#endif\n"
                           "#define AGAIN_ARCH __CUDA_ARCH__\n");
  std::string Text = parse("");
  ASSERT_NE(Text.find(" AGAIN_ARCH"), std::string::npos) << Text;
  std::string Cache = Tmp.path("cache");
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(parse(Cache), Text) << "parse " << I;
  EXPECT_EQ(headers(Cache, "preamble-", ".pch.usable"), 1u)
      << "the refusal is kept";
  EXPECT_EQ(headers(Cache, "preamble-"), 1u) << "<lead.h> is precompiled";
  EXPECT_EQ(parse(Cache), Text);
}

TEST_F(PreludePchTest, AUsersHeaderSpelledLikeASystemOneStaysText) {
  // <mine.h> is found through -I: a user's header, whose conditionals the
  // parse must see. The prelude holds <lead.h> only.
  Path = Tmp.write("u.cu", "#include <lead.h>\n#include <mine.h>\n" +
                               std::string(LeadingUnit));
  Tmp.write("user.h", "int user;\n");
  Tmp.write("sys/lead.h", Lead);
  Tmp.write("mine/mine.h", "#pragma once\n"
                           "#if MINE_ARCH >= 700\n"
                           "#endif\n");
  Flags.Args.push_back("-I" + Tmp.path("mine"));
  Flags.Args.push_back("-DMINE_ARCH=__CUDA_ARCH__");
  std::string Text = parse("");
  ASSERT_NE(Text.find("group"), std::string::npos) << Text;
  std::string Cache = Tmp.path("cache");
  for (int I = 0; I < 4; ++I)
    EXPECT_EQ(parse(Cache), Text) << "parse " << I;
  EXPECT_EQ(headers(Cache, "preamble-", ".pch.usable"), 1u);
  EXPECT_EQ(headers(Cache, "preamble-"), 1u) << "<lead.h> is precompiled";
}

TEST(LeadingSystemIncludes, AreTheIncludeLinesBeforeAnythingElse) {
  EXPECT_EQ(leadingSystemIncludes("// c\n\n/* a\n b */\n#include <a/b.h>\n"
                                  "  #  include <c> // d\n"
                                  "#include \"u.h\"\n#include <e>\n"),
            (std::vector<std::string>{"a/b.h", "c"}));
  EXPECT_EQ(leadingSystemIncludes("#define X\n#include <a>\n"),
            std::vector<std::string>{});
  EXPECT_EQ(leadingSystemIncludes("#include <a>\n#if X\n#include <b>\n"),
            std::vector<std::string>{"a"});
  EXPECT_EQ(leadingSystemIncludes("#include <a> /* x\n*/ #include <b>\n"),
            std::vector<std::string>{});
  EXPECT_EQ(leadingSystemIncludes("/* x */ int y;\n#include <a>\n"),
            std::vector<std::string>{});
}

} // namespace
