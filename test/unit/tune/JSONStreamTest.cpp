//===- JSONStreamTest.cpp - A JSON document read a value at a time --------===//
#include "tune/JSONStream.h"
#include "tune/Gzip.h"

#include <gtest/gtest.h>

using namespace metacu::tune;

static JSONStream stream(llvm::StringRef Text, uint64_t Limit = UINT64_MAX) {
  return JSONStream(ChunkSource::ofText(Text, Limit), "s.json");
}

TEST(JSONStreamTest, ValuesAreParsedWithTheFilesLinesAndColumns) {
  std::string Text = "{\"a\":\n  {\"x\": [1, 2]}, \"b\": {\"y\": tru}}";
  JSONStream S = stream(Text);
  ASSERT_FALSE(bool(S.expect('{', "'{'")));
  EXPECT_EQ(llvm::cantFail(S.string(100)), "a");
  ASSERT_FALSE(bool(S.expect(':', "':'")));
  llvm::json::Value A = llvm::cantFail(S.value(100, "a"));
  EXPECT_EQ(A, llvm::json::Value(llvm::json::Object{{"x", llvm::json::Array{1, 2}}}));
  ASSERT_FALSE(bool(S.expect(',', "','")));
  EXPECT_EQ(llvm::cantFail(S.string(100)), "b");
  ASSERT_FALSE(bool(S.expect(':', "':'")));
  auto B = S.value(100, "b");
  ASSERT_FALSE(bool(B));
  EXPECT_EQ(llvm::toString(B.takeError()), "s.json:2:32: Invalid JSON value (true?)");
}

TEST(JSONStreamTest, BoundsAValuesTextItsNestingAndTheBytesRead) {
  JSONStream Long = stream("[1, 2, 3, 4]");
  EXPECT_EQ(llvm::toString(Long.value(6, "").takeError()),
            "s.json:1:7: a value longer than 0 KiB");
  std::string Deep(600, '[');
  JSONStream D = stream(Deep);
  EXPECT_EQ(llvm::toString(D.value(1 << 20, "").takeError()),
            "s.json:1:513: arrays and objects nested more than 512 deep");
  // A gzip member that inflates past the limit.
  std::string Bomb = llvm::cantFail(gzip(std::string(1 << 20, ' ')));
  JSONStream G = stream(Bomb, 1000);
  auto P = G.peek();
  ASSERT_FALSE(bool(P));
  EXPECT_NE(llvm::toString(P.takeError()).find("more than the 0 MiB"),
            std::string::npos);
}

TEST(JSONStreamTest, GzipDataIsInflatedAcrossMembers) {
  std::string Two = llvm::cantFail(gzip("[1,")) + llvm::cantFail(gzip(" 2]"));
  JSONStream S = stream(Two);
  EXPECT_EQ(llvm::cantFail(S.value(100, "")),
            llvm::json::Value(llvm::json::Array{1, 2}));
  EXPECT_FALSE(llvm::cantFail(S.peek()).has_value());
}

TEST(JSONStreamTest, AFileThatIsNoRegularFileIsAnError) {
  auto S = ChunkSource::open("/dev/null", 100);
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "cannot read /dev/null: not a regular file");
}
