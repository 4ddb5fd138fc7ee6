//===- SearchSpaceTest.cpp - Parameters, restrictions, neighbourhoods -----===//
#include "tune/SearchSpace.h"

#include <gtest/gtest.h>

using namespace metacu::tune;

static std::vector<Parameter>
ints(std::initializer_list<std::pair<const char *, std::vector<int>>> Ps) {
  std::vector<Parameter> Out;
  for (const auto &[Name, Values] : Ps) {
    Parameter P{Name, {}};
    for (int V : Values)
      P.Values.push_back(Value::integer(V));
    Out.push_back(std::move(P));
  }
  return Out;
}

static SearchSpace all(std::vector<Parameter> Ps) {
  auto S = SearchSpace::restricted(
      std::move(Ps), [](llvm::ArrayRef<uint32_t>) { return true; });
  EXPECT_TRUE(bool(S));
  return std::move(*S);
}

TEST(SearchSpaceTest, EnumeratesWithTheLastParameterFastest) {
  SearchSpace S = all(ints({{"a", {1, 2}}, {"b", {10, 20, 30}}}));
  ASSERT_EQ(S.size(), 6u);
  EXPECT_EQ(S.key(0), "1,10");
  EXPECT_EQ(S.key(1), "1,20");
  EXPECT_EQ(S.key(2), "1,30");
  EXPECT_EQ(S.key(3), "2,10");
  EXPECT_EQ(S.key(5), "2,30");
}

TEST(SearchSpaceTest, IndexAndConfigurationMapBothWays) {
  SearchSpace S =
      all(ints({{"a", {1, 2, 3}}, {"b", {1, 2}}, {"c", {5, 6, 7, 8}}}));
  ASSERT_EQ(S.size(), 24u);
  for (uint32_t I = 0; I < S.size(); ++I) {
    Config C = S.config(I);
    ASSERT_EQ(C.size(), 3u);
    EXPECT_EQ(S.indexOf(C), I);
    for (unsigned P = 0; P < 3; ++P)
      EXPECT_EQ(S.value(I, P), S.parameters()[P].Values[C[P]]);
  }
  EXPECT_FALSE(S.indexOf(Config{3, 0, 0}).has_value()); // value out of range
  EXPECT_FALSE(S.indexOf(Config{0, 0}).has_value());    // too few values
}

TEST(SearchSpaceTest, RestrictionKeepsOnlyAllowedConfigurations) {
  // Block sizes whose product is at most 64, as a thread-count limit.
  std::vector<Parameter> Ps =
      ints({{"bx", {8, 16, 32, 64}}, {"by", {1, 2, 4, 8}}});
  auto S = SearchSpace::restricted(Ps, [&](llvm::ArrayRef<uint32_t> C) {
    return Ps[0].Values[C[0]].asInt() * Ps[1].Values[C[1]].asInt() <= 64;
  });
  ASSERT_TRUE(bool(S));
  // 8: 1,2,4,8; 16: 1,2,4; 32: 1,2; 64: 1.
  EXPECT_EQ(S->size(), 10u);
  EXPECT_EQ(S->productSize(), 16u);
  for (uint32_t I = 0; I < S->size(); ++I)
    EXPECT_LE(S->value(I, 0).asInt() * S->value(I, 1).asInt(), 64);
  EXPECT_FALSE(S->indexOf(Config{3, 1}).has_value()); // 64 x 2
  EXPECT_TRUE(S->indexOf(Config{3, 0}).has_value());  // 64 x 1
}

TEST(SearchSpaceTest, RecordedConfigurationsAreSortedAndUnique) {
  auto S = SearchSpace::recorded(ints({{"a", {1, 2}}, {"b", {1, 2, 3}}}),
                                 {Config{1, 2}, Config{0, 1}, Config{1, 2}});
  ASSERT_TRUE(bool(S));
  ASSERT_EQ(S->size(), 2u);
  EXPECT_EQ(S->key(0), "1,2");
  EXPECT_EQ(S->key(1), "2,3");
  auto Bad = SearchSpace::recorded(ints({{"a", {1, 2}}}), {Config{2}});
  EXPECT_FALSE(bool(Bad));
  llvm::consumeError(Bad.takeError());
}

TEST(SearchSpaceTest, RejectsMalformedParameters) {
  auto Expect = [](std::vector<Parameter> Ps, llvm::StringRef Message) {
    auto S = SearchSpace::restricted(
        std::move(Ps), [](llvm::ArrayRef<uint32_t>) { return true; });
    ASSERT_FALSE(bool(S));
    EXPECT_NE(llvm::toString(S.takeError()).find(Message.str()),
              std::string::npos)
        << Message.str();
  };
  Expect(ints({{"a", {}}}), "'a' has no values");
  Expect(ints({{"a", {1}}, {"a", {2}}}), "'a' is declared twice");
  Expect(ints({{"a", {1, 2, 1}}}), "lists the value 1 twice");
  Expect({}, "needs a parameter");
  // 2^32 configurations: 32 parameters of 2 values.
  std::vector<Parameter> Huge;
  for (int I = 0; I < 32; ++I)
    Huge.push_back(
        {"p" + std::to_string(I), {Value::integer(0), Value::integer(1)}});
  Expect(std::move(Huge), "more than 2^31");
}

TEST(SearchSpaceTest, HammingNeighboursChangeOneParameterToAnyValue) {
  SearchSpace S = all(ints({{"a", {1, 2, 3}}, {"b", {1, 2, 3, 4}}}));
  uint32_t Mid = *S.indexOf(Config{1, 1});
  llvm::SmallVector<uint32_t, 16> N;
  S.neighbours(Mid, Neighbourhood::Hamming, N);
  // 2 other values of a, 3 other values of b.
  ASSERT_EQ(N.size(), 5u);
  for (uint32_t I : N) {
    Config C = S.config(I);
    EXPECT_EQ((C[0] != 1) + (C[1] != 1), 1);
  }
  EXPECT_TRUE(std::is_sorted(N.begin(), N.end()));
}

TEST(SearchSpaceTest, AdjacentNeighboursStepOneValueInOneParameter) {
  SearchSpace S = all(ints({{"a", {1, 2, 3}}, {"b", {1, 2, 3, 4}}}));
  llvm::SmallVector<uint32_t, 16> N;
  S.neighbours(*S.indexOf(Config{1, 1}), Neighbourhood::Adjacent, N);
  ASSERT_EQ(N.size(), 4u);
  for (uint32_t I : N) {
    Config C = S.config(I);
    int Da = std::abs(int(C[0]) - 1), Db = std::abs(int(C[1]) - 1);
    EXPECT_EQ(Da + Db, 1);
  }
  // A corner has one step per parameter.
  S.neighbours(*S.indexOf(Config{0, 3}), Neighbourhood::Adjacent, N);
  EXPECT_EQ(N.size(), 2u);
}

TEST(SearchSpaceTest, NeighboursStayInTheValidSet) {
  std::vector<Parameter> Ps = ints({{"a", {1, 2, 3}}, {"b", {1, 2, 3}}});
  // Forbid the centre's right-hand neighbour.
  auto S = SearchSpace::restricted(
      Ps, [](llvm::ArrayRef<uint32_t> C) { return !(C[0] == 1 && C[1] == 2); });
  ASSERT_TRUE(bool(S));
  uint32_t Centre = *S->indexOf(Config{1, 1});
  llvm::SmallVector<uint32_t, 16> N;
  S->neighbours(Centre, Neighbourhood::Adjacent, N);
  EXPECT_EQ(N.size(), 3u);
  S->neighbours(Centre, Neighbourhood::Hamming, N);
  EXPECT_EQ(N.size(), 3u);
  for (uint32_t I : N)
    EXPECT_NE(S->key(I), "2,3");
}

TEST(SearchSpaceTest, KeysAndJSONUseEachValuesSpelling) {
  std::vector<Parameter> Ps{
      {"f", {Value::real(0.5), Value::real(1.0)}},
      {"b", {Value::boolean(false), Value::boolean(true)}},
      {"s", {Value::string("shared")}}};
  SearchSpace S = all(std::move(Ps));
  uint32_t I = *S.indexOf(Config{1, 1, 0});
  EXPECT_EQ(S.key(I), "1.0,True,shared");
  llvm::json::Object O = S.toJSON(I);
  EXPECT_EQ(O.getNumber("f"), 1.0);
  EXPECT_EQ(O.getBoolean("b"), true);
  EXPECT_EQ(O.getString("s"), "shared");
  EXPECT_EQ(S.parameterIndex("s"), 2u);
  EXPECT_FALSE(S.parameterIndex("t").has_value());
}
