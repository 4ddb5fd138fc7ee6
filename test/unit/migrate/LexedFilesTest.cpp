//===- LexedFilesTest.cpp - Each file's raw tokens, lexed once ------------===//
#include "migrate/LexedFiles.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

TEST(LexedFilesTest, TokensBetweenTwoOffsetsAreThoseThatBeginThere) {
  Facts F;
  F.Buffers["k.cu"] = "int a;\n#if X\nint b;\n#endif\n";
  LexedFiles Files(F);
  const Lexed &K = Files.of("k.cu");
  llvm::StringRef Text = F.Buffers["k.cu"];
  unsigned Begin = Text.find("int b"), End = Text.find("#endif");
  llvm::ArrayRef<Token> Branch = K.between(Begin, End);
  ASSERT_EQ(Branch.size(), 3u);
  EXPECT_EQ(Branch.front().Offset, Begin);
  EXPECT_TRUE(Branch[1].isIdent("b"));
  EXPECT_TRUE(K.between(End, End).empty());
  // The directive's tokens say they are on one.
  EXPECT_TRUE(K.between(Text.find("#if"), Begin).front().InDirective);
}

TEST(LexedFilesTest, AFileIsLexedOnceAndOneWithoutBufferHasNoTokens) {
  Facts F;
  F.Buffers["k.cu"] = "int a;\n";
  LexedFiles Files(F);
  EXPECT_EQ(&Files.of("k.cu"), &Files.of("k.cu"));
  EXPECT_FALSE(Files.of("k.cu").Tokens.empty());
  // The one place that says what a file without a buffer lexes to.
  const Lexed &H = Files.of("h.cuh");
  EXPECT_TRUE(H.Buffer.empty());
  EXPECT_TRUE(H.Tokens.empty());
  EXPECT_TRUE(H.between(0, 10).empty());
}

} // namespace
