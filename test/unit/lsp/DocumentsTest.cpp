//===- DocumentsTest.cpp - Open files: edits, the dialect, URIs -----------===//
#include "lsp/Documents.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

llvm::json::Object change(unsigned L0, unsigned C0, unsigned L1, unsigned C1,
                          llvm::StringRef Text) {
  auto P = [](unsigned L, unsigned C) {
    return llvm::json::Object{{"line", L}, {"character", C}};
  };
  return llvm::json::Object{
      {"range", llvm::json::Object{{"start", P(L0, C0)}, {"end", P(L1, C1)}}},
      {"text", Text.str()}};
}

TEST(DocumentsTest, AChangeReplacesItsRange) {
  TextLines T("int a;\nint é = 1;\n");
  auto New = applyChange(T, change(1, 4, 1, 5, "b"), PositionEncoding::UTF16);
  ASSERT_TRUE(bool(New));
  EXPECT_EQ(*New, "int a;\nint b = 1;\n");
  auto Whole = applyChange(T, llvm::json::Object{{"text", "x"}},
                           PositionEncoding::UTF16);
  EXPECT_EQ(*Whole, "x");
}

TEST(DocumentsTest, ABackwardRangeIsAnError) {
  auto New = applyChange(TextLines("abc"), change(0, 2, 0, 1, ""),
                         PositionEncoding::UTF16);
  EXPECT_FALSE(bool(New));
  llvm::consumeError(New.takeError());
}

TEST(DocumentsTest, TheDialectIsToldByItsConstructs) {
  EXPECT_FALSE(isDialect("k.cu", "__global__ void k() { int at = 1; }\n"));
  EXPECT_FALSE(isDialect("k.cu", "// @meta in a comment\nconst char *s = "
                                 "\"@meta\";\n"));
  EXPECT_TRUE(isDialect("k.cu", "@meta int n = 4;\n"));
  EXPECT_TRUE(isDialect("k.cu", "void f() { if codegen (__nvvm_arch >= "
                                "nvvm_arch_t::sm_80) {} }\n"));
  EXPECT_TRUE(isDialect("k.cu", "int x = @(1 + 2);\n"));
  EXPECT_TRUE(isDialect("k.cu", "int a = (int)__nvvm_arch;\n"));
}

TEST(DocumentsTest, UrisRoundTripWithEscapes) {
  std::string Uri = pathToUri("/a b/c#d.cu");
  EXPECT_EQ(Uri, "file:///a%20b/c%23d.cu");
  EXPECT_EQ(uriToPath(Uri), "/a b/c#d.cu");
  EXPECT_EQ(uriToPath("untitled:1"), std::nullopt);
}

} // namespace
