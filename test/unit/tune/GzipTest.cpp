//===- GzipTest.cpp - gzip files through zlib -----------------------------===//
#include "tune/Gzip.h"
#include "../TempDir.h"

#include <gtest/gtest.h>

using namespace metacu;
using namespace metacu::tune;

TEST(GzipTest, CompressesToGzipAndBack) {
  std::string Text;
  for (int I = 0; I < 10000; ++I)
    Text += "\"16,1,1,1\": {\"time\": " + std::to_string(I) + "},\n";
  std::string Z = llvm::cantFail(gzip(Text));
  EXPECT_TRUE(isGzip(Z));
  EXPECT_LT(Z.size(), Text.size() / 4); // repetitive text compresses well
  EXPECT_EQ(llvm::cantFail(gunzip(Z)), Text);
}

TEST(GzipTest, ReadsConcatenatedMembersAsGunzipDoes) {
  std::string Z =
      llvm::cantFail(gzip("first ")) + llvm::cantFail(gzip("second"));
  EXPECT_EQ(llvm::cantFail(gunzip(Z)), "first second");
}

TEST(GzipTest, TruncatedOrCorruptDataIsAnError) {
  std::string Z = llvm::cantFail(gzip(std::string(5000, 'x')));
  auto Truncated = gunzip(llvm::StringRef(Z).drop_back(12));
  ASSERT_FALSE(bool(Truncated));
  EXPECT_NE(llvm::toString(Truncated.takeError()).find("truncated"),
            std::string::npos);
  std::string Corrupt = Z;
  Corrupt[3] = char(0xff); // reserved header flags
  auto Bad = gunzip(Corrupt);
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

TEST(GzipTest, FilesAreCompressedByNameAndRecognisedByContent) {
  TempDir T;
  std::string Gz = T.path("cache.json.gz"), Plain = T.path("cache.json");
  for (const std::string &P : {Gz, Plain})
    ASSERT_FALSE(bool(
        metacu::writeOutputs(llvm::cantFail(maybeGzipFile(P, "{\"a\": 1}")))));
  EXPECT_TRUE(isGzip(TempDir::read(Gz)));
  EXPECT_EQ(TempDir::read(Plain), "{\"a\": 1}");
  EXPECT_EQ(llvm::cantFail(readMaybeGzipFile(Gz)), "{\"a\": 1}");
  EXPECT_EQ(llvm::cantFail(readMaybeGzipFile(Plain)), "{\"a\": 1}");
  // A gzip file without the .gz name still reads.
  std::string Renamed = T.path("renamed.json");
  ASSERT_FALSE(llvm::sys::fs::rename(Gz, Renamed));
  EXPECT_EQ(llvm::cantFail(readMaybeGzipFile(Renamed)), "{\"a\": 1}");
  auto Missing = readMaybeGzipFile(T.path("missing.json"));
  ASSERT_FALSE(bool(Missing));
  EXPECT_NE(llvm::toString(Missing.takeError()).find("missing.json"),
            std::string::npos);
}

TEST(GzipTest, InflationPastTheLimitIsAnError) {
  // 2 MiB of spaces compress to 2 KiB: a small file may inflate to
  // gigabytes.
  std::string Big(2 << 20, ' ');
  std::string Z = llvm::cantFail(gzip(Big));
  EXPECT_EQ(llvm::cantFail(gunzip(Z, Big.size())), Big);
  auto Over = gunzip(Z, 1 << 20);
  ASSERT_FALSE(bool(Over));
  EXPECT_EQ(llvm::toString(Over.takeError()), "inflates to more than 1 MiB");
}
