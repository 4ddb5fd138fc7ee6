//===- PreamblesTest.cpp - Runs that reuse the command line's headers ---===//
#include "toolchain/Preambles.h"
#include "TempDir.h"
#include "toolchain/Invocation.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// Counts the errors of a run.
struct Errors : clang::DiagnosticConsumer {
  void HandleDiagnostic(clang::DiagnosticsEngine::Level L,
                        const clang::Diagnostic &Info) override {
    if (L >= clang::DiagnosticsEngine::Error)
      ++Count;
  }
  unsigned Count = 0;
};

/// Runs a syntax check of \p File (whose text is \p Text), which the
/// command line gives \p Header with -include; returns its errors.
unsigned check(const std::string &File, llvm::StringRef Text,
               const std::string &Header, Preambles *Cache, PreambleUse &Used,
               std::function<PreambleWatch(clang::Preprocessor &)> Watch = {},
               bool IgnoreErrors = false) {
  auto Files = filesWith(Text, File);
  Errors E;
  ClangRun Run;
  Run.Args = {"clang++",  "-fsyntax-only", "-x", "c++",
              "-include", Header,          File};
  Run.Files = Files.get();
  Run.Diagnostics = &E;
  Run.Watch = std::move(Watch);
  if (IgnoreErrors)
    Run.Ignored = [](clang::DiagnosticsEngine::Level L,
                     const clang::Diagnostic &) {
      return L == clang::DiagnosticsEngine::Error;
    };
  EXPECT_TRUE(
      runClang(Run, std::make_unique<clang::SyntaxOnlyAction>(), Cache, &Used));
  return E.Count;
}

TEST(PreamblesTest, TheCommandLinesHeadersAreReadOnceUntilTheyChange) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first();\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  PreambleUse Used;
  EXPECT_EQ(check(File, "int k = first();\n", Header, &Cache, Used), 0u);
  // The preamble read the header, after the input was entered.
  ASSERT_EQ(Used.Files.size(), 2u);
  EXPECT_EQ(Used.Files[0], File);
  EXPECT_EQ(Used.Files[1], Header);
  // Reused, with another text of the input: its declarations are there.
  EXPECT_EQ(check(File, "int k = first() + first();\n", Header, &Cache, Used),
            0u);
  EXPECT_EQ(Used.Files.size(), 2u);
  EXPECT_EQ(check(File, "int k = second();\n", Header, &Cache, Used), 1u);
  // A header changed on disk is read again.
  Dir.write("pre.h", "int first();\nint second(); // a longer text\n");
  EXPECT_EQ(check(File, "int k = second();\n", Header, &Cache, Used), 0u);
  EXPECT_EQ(Used.Files.size(), 2u);
}

TEST(PreamblesTest, TheInputsLeadingIncludesAreReadOnceUntilTheyChange) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first();\n");
  std::string Inc = Dir.write("inc.h", "int second();\n");
  std::string Other = Dir.write("other.h", "int third();\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  PreambleUse Used;
  std::string Lines = "// k\n#include \"inc.h\"\n";
  EXPECT_EQ(check(File, Lines + "int k = second();\n", Header, &Cache, Used),
            0u);
  EXPECT_EQ(Used.Files, (std::vector<std::string>{File, Header, Inc}));
  // Reused with another text after those lines.
  EXPECT_EQ(check(File, Lines + "int k = second() + first();\n", Header, &Cache,
                  Used),
            0u);
  EXPECT_EQ(Used.Files.size(), 3u);
  // The included header changed on disk: read again.
  Dir.write("inc.h", "int fourth(); // a longer text\n");
  EXPECT_EQ(check(File, Lines + "int k = second();\n", Header, &Cache, Used),
            1u);
  EXPECT_EQ(check(File, Lines + "int k = fourth();\n", Header, &Cache, Used),
            0u);
  // Another #include line: another preamble.
  std::string More = Lines + "#include \"other.h\"\n";
  EXPECT_EQ(check(File, More + "int k = third();\n", Header, &Cache, Used), 0u);
  EXPECT_EQ(Used.Files, (std::vector<std::string>{File, Header, Inc, Other}));
}

TEST(PreamblesTest, AnErrorInTheLeadingIncludesLeavesTheCommandLinesHeaders) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first();\n");
  Dir.write("bad.h", "int second(;\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  PreambleUse Used;
  // The header's error is the run's, as without a cache, each time.
  for (int Run = 0; Run < 2; ++Run) {
    EXPECT_EQ(check(File, "#include \"bad.h\"\nint k = first();\n", Header,
                    &Cache, Used),
              1u);
    EXPECT_EQ(Used.Files, (std::vector<std::string>{File, Header}));
  }
}

TEST(PreamblesTest, APreambleWithAnErrorIsNotUsed) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first(;\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  PreambleUse Used;
  // The header's error is the run's, as without a cache.
  EXPECT_EQ(check(File, "int k = 1;\n", Header, &Cache, Used), 1u);
  EXPECT_TRUE(Used.Files.empty());
}

TEST(PreamblesTest, APreambleWithErrorsTheStageIgnoresIsUsed) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first(;\n");
  std::string Bad = Dir.write("bad.h", "int second(;\nint third();\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  PreambleUse Used;
  // The errors are not counted (the stage ignores them), the declarations
  // after them are there.
  for (int Run = 0; Run < 2; ++Run) {
    EXPECT_EQ(check(File, "#include \"bad.h\"\nint k = third();\n", Header,
                    &Cache, Used, {}, /*IgnoreErrors=*/true),
              0u);
    EXPECT_EQ(Used.Files, (std::vector<std::string>{File, Header, Bad}));
  }
}

/// The macros a preprocessor saw defined.
struct MacroNames : PreambleNotes {
  std::vector<std::string> Names;
};

struct Definitions : clang::PPCallbacks {
  explicit Definitions(MacroNames &D) : D(D) {}
  void MacroDefined(const clang::Token &Name,
                    const clang::MacroDirective *) override {
    D.Names.push_back(Name.getIdentifierInfo()->getName().str());
  }
  MacroNames &D;
};

TEST(PreamblesTest, TheStagesCallbacksWatchThePreamblesBuild) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "#define FIRST 1\n");
  Dir.write("inc.h", "#define SECOND 2\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  PreambleUse Used;
  unsigned Builds = 0;
  auto Watch = [&](clang::Preprocessor &) {
    ++Builds;
    auto N = std::make_shared<MacroNames>();
    return PreambleWatch{std::make_unique<Definitions>(*N), N};
  };
  for (int Run = 0; Run < 2; ++Run) {
    EXPECT_EQ(check(File, "#include \"inc.h\"\nint k = FIRST + SECOND;\n",
                    Header, &Cache, Used, Watch),
              0u);
    const auto *N = static_cast<const MacroNames *>(Used.Notes.get());
    ASSERT_NE(N, nullptr);
    EXPECT_TRUE(llvm::is_contained(N->Names, "FIRST"));
    EXPECT_TRUE(llvm::is_contained(N->Names, "SECOND"));
  }
  EXPECT_EQ(Builds, 1u);
}

TEST(PreamblesTest, OnlyLeadingLiteralIncludesAreHeld) {
  EXPECT_EQ(leadingIncludes("#include <a>\n// b\n#include \"b.h\"\nint x;\n"),
            33u);
  // Any other directive ends the lines held: the stage's callbacks see it.
  EXPECT_EQ(leadingIncludes("#include <a>\n#define B\n#include <c>\n"), 13u);
  EXPECT_EQ(leadingIncludes("#include <a>\n#include NAME\n"), 13u);
  EXPECT_EQ(leadingIncludes("#if X\n#include <a>\n#endif\n"), 0u);
  EXPECT_EQ(leadingIncludes("int x;\n#include <a>\n"), 0u);
  // A line not ended is not held.
  EXPECT_EQ(leadingIncludes("#include <a>"), 0u);
}

} // namespace
