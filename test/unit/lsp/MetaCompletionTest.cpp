//===- MetaCompletionTest.cpp - Completion after a meta value's '.' -------===//
#include "lsp/MetaCompletion.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

constexpr llvm::StringLiteral Input = "struct cfg_t { int nt; };\n"
                                      "@meta cfg_t cfg{128};\n"
                                      "int f() { return cfg.n";

TEST(MetaCompletionTest, TheProbeDeclaresTheValueAndEndsAtTheCursor) {
  auto P = metaMemberProbe("k.cu", Input, Input.size(), "BODY\n");
  ASSERT_TRUE(P);
  llvm::StringRef Text = P->Text;
  EXPECT_TRUE(Text.starts_with("BODY\n"));
  EXPECT_NE(Text.find("cfg_t cfg{128};"), llvm::StringRef::npos) << Text.str();
  EXPECT_TRUE(Text.substr(0, P->Cursor).ends_with("cfg.n")) << Text.str();
  EXPECT_EQ(P->WordBegin, Input.size() - 1);
}

TEST(MetaCompletionTest, OrdinaryMembersAreClangdsAlone) {
  llvm::StringRef Plain = "struct s { int n; } v;\nint f() { return v.";
  EXPECT_FALSE(metaMemberProbe("k.cu", Plain, Plain.size(), ""));
  llvm::StringRef NoAccess = "@meta int n = 1;\nint f() { return n";
  EXPECT_FALSE(metaMemberProbe("k.cu", NoAccess, NoAccess.size(), ""));
}

} // namespace
