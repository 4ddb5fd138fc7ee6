//===- JSONErrorTest.cpp - Reading and locating JSON input ----------------===//
#include "tune/JSONError.h"
#include "../TempDir.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

using namespace metacu;
using namespace metacu::tune;

TEST(JSONErrorTest, NestingPastTheBoundIsAnErrorAtItsBracket) {
  // 50,000 levels overflowed llvm::json's recursive parser.
  std::string Deep = "{\"a\":\n  " + std::string(50000, '[');
  auto V = parseJSON(Deep, "deep.json");
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(llvm::toString(V.takeError()),
            "deep.json:2:" + std::to_string(2 + MaxJSONNesting) +
                ": arrays and objects nested more than " +
                std::to_string(MaxJSONNesting) + " deep");
  // Brackets in strings do not count; as deep as allowed parses.
  std::string InString = "[\"" + std::string(1000, '[') + "\\\"[\"]";
  EXPECT_TRUE(bool(parseJSON(InString, "s.json")));
  std::string Allowed =
      std::string(MaxJSONNesting, '[') + std::string(MaxJSONNesting, ']');
  EXPECT_TRUE(bool(parseJSON(Allowed, "a.json")));
  // A line of a JSON-lines file is located at its line.
  auto Line = parseJSON("{\"x\": }", "j.jsonl", 7);
  ASSERT_FALSE(bool(Line));
  EXPECT_EQ(llvm::toString(Line.takeError()),
            "j.jsonl:7:7: Invalid JSON value");
}

// llvm::json keeps one of the two values without a word: a file metacu
// writes back would lose the other.
TEST(JSONErrorTest, AKeyGivenTwiceInAnObjectIsAnErrorAtItsSecondSpelling) {
  auto V = parseJSON("{\"a\": 1,\n \"b\": {\"a\": 2, \"c\": [{\"a\": 3}]},\n"
                     " \"\\u0061\": 4}",
                     "dup.json");
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(llvm::toString(V.takeError()), "dup.json:3:2: \"a\" given twice");
  // Objects apart may share keys; a string value is no key.
  EXPECT_TRUE(
      bool(parseJSON("[{\"a\": 1}, {\"a\": \"a\", \"b\": \"a\"}]", "ok.json")));
  // A value that starts in the middle of a line of a JSON-lines file.
  auto Line = parseJSON("{\"x\": 1, \"x\": 2}", "j.jsonl", 4, 10);
  ASSERT_FALSE(bool(Line));
  EXPECT_EQ(llvm::toString(Line.takeError()),
            "j.jsonl:4:19: \"x\" given twice");
}

// llvm::json reads an integer no 64-bit integer holds as the nearest
// double (2^64) or as another integer (-2^63-1 as -2^63), without a word.
TEST(JSONErrorTest, AnIntegerNo64BitIntegerHoldsIsAnError) {
  auto Above = parseJSON("{\"a\": [1,\n 18446744073709551616]}", "i.json");
  ASSERT_FALSE(bool(Above));
  EXPECT_EQ(llvm::toString(Above.takeError()),
            "i.json:2:2: 18446744073709551616: an integer no 64-bit integer "
            "holds (read, it would be rounded)");
  auto Below = parseJSON("[-9223372036854775809]", "j.jsonl", 3, 5);
  ASSERT_FALSE(bool(Below));
  EXPECT_EQ(llvm::toString(Below.takeError()).rfind("j.jsonl:3:6: ", 0), 0u);
  // Each end of the 64-bit range, a float spelling and a string are read.
  EXPECT_TRUE(bool(parseJSON("[18446744073709551615, -9223372036854775808, "
                             "1.8446744073709552e19, \"18446744073709551616\"]",
                             "ok.json")));
}

TEST(JSONErrorTest, OnlyRegularFilesAreRead) {
  TempDir T;
  std::string Fifo = T.path("fifo");
  ASSERT_EQ(mkfifo(Fifo.c_str(), 0600), 0);
  auto R = readInputFile(Fifo);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "cannot read " + Fifo + ": not a regular file");
  auto Missing = readInputFile(T.path("missing.json"));
  ASSERT_FALSE(bool(Missing));
  EXPECT_TRUE(llvm::errorToErrorCode(Missing.takeError()) ==
              std::errc::no_such_file_or_directory);
  EXPECT_EQ(llvm::cantFail(readInputFile(T.write("a.json", "{}"))), "{}");
}

TEST(JSONErrorTest, ANumberNoDoubleHoldsIsAnError) {
  // llvm::json reads 1e999 as an infinity and would write it back as "inf".
  auto V = parseJSON("{\"a\": {\"b\": [1, 1e999]}}", "big.json");
  ASSERT_FALSE(bool(V));
  EXPECT_EQ(llvm::toString(V.takeError()),
            "big.json:1:17: a.b[1]: a number too large for a double");
}

TEST(JSONErrorTest, AnInputNamesTheFileTheLineAndThePathOfAWrongValue) {
  JSONInput In("manifest.json");
  llvm::json::Path P(In.Root);
  int64_t Config;
  ASSERT_FALSE(llvm::json::fromJSON(llvm::json::Value("one"), Config,
                                    P.field("batches")
                                        .index(0)
                                        .field("candidates")
                                        .index(0)
                                        .field("config")));
  EXPECT_EQ(llvm::toString(In.error()),
            "manifest.json: batches[0].candidates[0].config: expected integer");

  JSONInput Line("results.jsonl", 4);
  Line.fail(llvm::json::Path(Line.Root).field("status"),
            "\"fine\" is no status");
  EXPECT_EQ(llvm::toString(Line.error()),
            "results.jsonl:4: status: \"fine\" is no status");

  JSONInput Top("x.json");
  llvm::json::ObjectMapper O(llvm::json::Value(1), Top.Root);
  EXPECT_FALSE(O);
  EXPECT_EQ(llvm::toString(Top.error()), "x.json: expected object");
}

TEST(JSONErrorTest, AValueIsFoundByItsPath) {
  llvm::StringRef Text =
      "{\"a\": [1,\n  {\"b\": \"x\", \"c.d\": [true, null]}],\n"
      " \"e\\\"q\": {}}";
  using Where = std::pair<unsigned, unsigned>;
  EXPECT_EQ(locateJSONValue(Text, ""), Where(1, 1));
  EXPECT_EQ(locateJSONValue(Text, "a"), Where(1, 7));
  EXPECT_EQ(locateJSONValue(Text, "a[1].b"), Where(2, 9));
  // A key with a dot is spelled as llvm::json::Path prints it.
  EXPECT_EQ(locateJSONValue(Text, "a[1].c.d[1]"), Where(2, 28));
  // An escaped quote in a key: the path spells the key read.
  EXPECT_EQ(locateJSONValue(Text, "e\"q"), Where(3, 10));
  // A field that is missing: the object that lacks it.
  EXPECT_EQ(locateJSONValue(Text, "a[1].z"), Where(2, 3));
  EXPECT_EQ(locateJSONValue(Text, "a[7]"), Where(1, 7));
  // A record of a JSON-lines file, or a value inside a larger file.
  EXPECT_EQ(locateJSONValue("{\"t\": [1, \"2\"]}", "t[1]", 4), Where(4, 11));
  EXPECT_EQ(locateJSONValue("[1, 2]", "[1]", 10, 9), Where(10, 13));
}

TEST(JSONErrorTest, AnInputWithItsTextNamesTheLineAndColumnOfAWrongValue) {
  std::string Text = "{\"batches\": [\n  {\"config\": \"one\"}]}";
  JSONInput In("manifest.json", Text);
  llvm::json::Path P(In.Root);
  int64_t Config;
  ASSERT_FALSE(
      llvm::json::fromJSON(llvm::json::Value("one"), Config,
                           P.field("batches").index(0).field("config")));
  EXPECT_EQ(llvm::toString(In.error()),
            "manifest.json:2:14: batches[0].config: expected integer");

  JSONInput Line("results.jsonl", R"({"config": 1, "status": "fine"})", 4);
  Line.fail(llvm::json::Path(Line.Root).field("status"),
            "\"fine\" is no status");
  EXPECT_EQ(llvm::toString(Line.error()),
            "results.jsonl:4:25: status: \"fine\" is no status");
  // No text at hand: the file and the path alone, as before.
  JSONInput None("p.json", llvm::StringRef());
  None.fail(llvm::json::Path(None.Root).field("kernel"), "another kernel");
  EXPECT_EQ(llvm::toString(None.error()), "p.json: kernel: another kernel");
}

TEST(JSONErrorTest, OnlyTextThatIsNotJSONIsATornRecord) {
  EXPECT_TRUE(isTornRecord(R"({"config": 9, "status": "corr)"));
  EXPECT_TRUE(isTornRecord("{"));
  EXPECT_FALSE(isTornRecord(R"({"config": 9})"));
  EXPECT_FALSE(isTornRecord(std::string(1000, '[')));
}
