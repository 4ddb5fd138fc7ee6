//===- IdentifiersTest.cpp - A preprocessor's identifiers looked up -------===//
#include "support/Identifiers.h"

#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// Preprocesses a file, then runs the test's checks on its preprocessor.
class CheckAfterPreprocessing : public clang::PreprocessOnlyAction {
public:
  explicit CheckAfterPreprocessing(
      std::function<void(const clang::Preprocessor &)> Check)
      : Check(std::move(Check)) {}

private:
  void EndSourceFileAction() override {
    Check(getCompilerInstance().getPreprocessor());
  }
  std::function<void(const clang::Preprocessor &)> Check;
};

void preprocess(llvm::StringRef Code,
                std::function<void(const clang::Preprocessor &)> Check) {
  ASSERT_TRUE(clang::tooling::runToolOnCode(
      std::make_unique<CheckAfterPreprocessing>(std::move(Check)), Code,
      "k.cpp"));
}

TEST(IdentifiersTest, ANameTheFileSpellsIsFoundWithItsMacro) {
  bool Checked = false;
  preprocess("#define LIMIT 4\nint seen = LIMIT;\n",
             [&](const clang::Preprocessor &PP) {
               const clang::IdentifierInfo *Seen = findIdentifier(PP, "seen");
               ASSERT_NE(Seen, nullptr);
               EXPECT_EQ(Seen->getName(), "seen");
               const clang::IdentifierInfo *Limit = findIdentifier(PP, "LIMIT");
               ASSERT_NE(Limit, nullptr);
               EXPECT_NE(PP.getMacroInfo(Limit), nullptr);
               Checked = true;
             });
  EXPECT_TRUE(Checked);
}

TEST(IdentifiersTest, ANameNeverLexedIsNotMade) {
  bool Checked = false;
  preprocess("#if 0\nint skipped_name;\n#endif\nint x;\n",
             [&](const clang::Preprocessor &PP) {
               unsigned Before = PP.getIdentifierTable().size();
               EXPECT_EQ(findIdentifier(PP, "never_spelled_anywhere"), nullptr);
               // A skipped region's words are not lexed as identifiers.
               EXPECT_EQ(findIdentifier(PP, "skipped_name"), nullptr);
               EXPECT_EQ(PP.getIdentifierTable().size(), Before);
               Checked = true;
             });
  EXPECT_TRUE(Checked);
}

} // namespace
