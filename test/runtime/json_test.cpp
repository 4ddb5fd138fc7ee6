// Host-side tests of metacu/meta.h's JSON reader: what meta code reads with
// metacu::load_json, and the located errors it stops generation with.
#include <metacu/meta.h>

#include <gtest/gtest.h>

#include <string>

namespace {

std::string parseError(const char *Text) {
  try {
    metacu::json::parse(Text, "t.json");
  } catch (const metacu::error &E) {
    return E.what();
  }
  return "no error";
}

TEST(Json, ReadsNestedObjectsAndArrays) {
  metacu::json V =
      metacu::json::parse("{\"a\": [1, 2, {\"b\": true}],\n \"c\": \"x\"}",
                          "t.json");
  EXPECT_EQ(V.size(), 2u);
  EXPECT_EQ(V["a"].size(), 3u);
  EXPECT_EQ(V["a"][1].as_int(), 2);
  EXPECT_TRUE(V["a"][2]["b"].as_bool());
  EXPECT_EQ(V["c"].as_string(), "x");
}

TEST(Json, EmptyContainersHoldNothing) {
  EXPECT_EQ(metacu::json::parse("{}", "t.json").size(), 0u);
  EXPECT_EQ(metacu::json::parse("[ ]", "t.json").size(), 0u);
  EXPECT_EQ(metacu::json::parse("{\"a\": {}}", "t.json")["a"].size(), 0u);
}

TEST(Json, ErrorsAreAtTheirLineAndColumn) {
  EXPECT_EQ(parseError("[1, 2"), "t.json:1:6: expected ',' or ']' in JSON array");
  EXPECT_EQ(parseError("{\"a\": 1\n \"b\": 2}"),
            "t.json:2:2: expected ',' or '}' in JSON object");
  EXPECT_EQ(parseError("{\"a\" 1}"),
            "t.json:1:6: expected ':' after JSON object key");
  EXPECT_EQ(parseError("{,}"),
            "t.json:1:2: expected a string as JSON object key");
  EXPECT_EQ(parseError("[1,]"), "t.json:1:4: unexpected character ']' in JSON");
}

} // namespace
