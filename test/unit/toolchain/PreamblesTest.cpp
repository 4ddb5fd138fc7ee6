//===- PreamblesTest.cpp - Runs that reuse the command line's headers ---===//
#include "toolchain/Preambles.h"
#include "TempDir.h"
#include "toolchain/Invocation.h"

#include "clang/Frontend/FrontendActions.h"
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
unsigned
check(const std::string &File, llvm::StringRef Text, const std::string &Header,
      Preambles *Cache, std::vector<std::string> &Preambled,
      llvm::function_ref<bool(clang::FileEntryRef, clang::Preprocessor &)>
          Excluded = nullptr) {
  auto Files = filesWith(Text, File);
  Errors E;
  ClangRun Run;
  Run.Args = {"clang++",  "-fsyntax-only", "-x", "c++",
              "-include", Header,          File};
  Run.Files = Files.get();
  Run.Diagnostics = &E;
  Run.Excluded = Excluded;
  EXPECT_TRUE(runClang(Run, std::make_unique<clang::SyntaxOnlyAction>(), Cache,
                       &Preambled));
  return E.Count;
}

TEST(PreamblesTest, TheCommandLinesHeadersAreReadOnceUntilTheyChange) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first();\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  std::vector<std::string> Preambled;
  EXPECT_EQ(check(File, "int k = first();\n", Header, &Cache, Preambled), 0u);
  // The preamble read the header, after the input was entered.
  ASSERT_EQ(Preambled.size(), 2u);
  EXPECT_EQ(Preambled[0], File);
  EXPECT_EQ(Preambled[1], Header);
  // Reused, with another text of the input: its declarations are there.
  EXPECT_EQ(
      check(File, "int k = first() + first();\n", Header, &Cache, Preambled),
      0u);
  EXPECT_EQ(Preambled.size(), 2u);
  EXPECT_EQ(check(File, "int k = second();\n", Header, &Cache, Preambled), 1u);
  // A header changed on disk is read again.
  Dir.write("pre.h", "int first();\nint second(); // a longer text\n");
  EXPECT_EQ(check(File, "int k = second();\n", Header, &Cache, Preambled), 0u);
  EXPECT_EQ(Preambled.size(), 2u);
}

TEST(PreamblesTest, APreambleThatReadAnExcludedHeaderIsNotUsed) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first();\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  std::vector<std::string> Preambled;
  auto Excluded = [&](clang::FileEntryRef F, clang::Preprocessor &) {
    return F.getName() == Header;
  };
  // The run reads the header itself, as without a cache.
  EXPECT_EQ(
      check(File, "int k = first();\n", Header, &Cache, Preambled, Excluded),
      0u);
  EXPECT_TRUE(Preambled.empty());
  EXPECT_EQ(
      check(File, "int k = second();\n", Header, &Cache, Preambled, Excluded),
      1u);
  EXPECT_TRUE(Preambled.empty());
}

TEST(PreamblesTest, APreambleWithAnErrorIsNotUsed) {
  TempDir Dir;
  std::string Header = Dir.write("pre.h", "int first(;\n");
  std::string File = Dir.path("k.cpp");
  Preambles Cache;
  std::vector<std::string> Preambled;
  // The header's error is the run's, as without a cache.
  EXPECT_EQ(check(File, "int k = 1;\n", Header, &Cache, Preambled), 1u);
  EXPECT_TRUE(Preambled.empty());
}

} // namespace
