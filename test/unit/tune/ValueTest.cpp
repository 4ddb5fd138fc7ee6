//===- ValueTest.cpp - Parameter values and their Python spellings --------===//
#include "tune/Value.h"

#include <gtest/gtest.h>

using namespace metacu::tune;

TEST(ValueTest, SpellsValuesAsPythonStrDoes) {
  // Kernel Tuner's cache keys are ",".join(str(v) for v in values).
  EXPECT_EQ(Value::integer(16).str(), "16");
  EXPECT_EQ(Value::integer(-3).str(), "-3");
  EXPECT_EQ(Value::real(1.0).str(), "1.0");
  EXPECT_EQ(Value::real(0.5).str(), "0.5");
  EXPECT_EQ(Value::real(0.1).str(), "0.1");
  EXPECT_EQ(Value::boolean(true).str(), "True");
  EXPECT_EQ(Value::boolean(false).str(), "False");
  EXPECT_EQ(Value::string("cuda").str(), "cuda");
}

TEST(ValueTest, NumbersCompareByValueOtherKindsByKind) {
  EXPECT_EQ(Value::integer(16), Value::real(16.0));
  EXPECT_NE(Value::integer(16), Value::real(16.5));
  EXPECT_NE(Value::string("1"), Value::integer(1));
  EXPECT_NE(Value::boolean(true), Value::string("True"));
  EXPECT_EQ(Value::string("a"), Value::string("a"));
}

TEST(ValueTest, ReadsJSONNumbersBooleansAndStrings) {
  auto I = Value::fromJSON(llvm::json::Value(4));
  ASSERT_TRUE(bool(I));
  EXPECT_EQ(I->kind(), Value::Kind::Int);
  auto F = Value::fromJSON(*llvm::json::parse("4.5"));
  ASSERT_TRUE(bool(F));
  EXPECT_EQ(F->kind(), Value::Kind::Float);
  EXPECT_EQ(F->str(), "4.5");
  // llvm::json does not keep the spelling of 4.0 (KernelTunerCache
  // recovers it from the cache keys).
  auto Integral = Value::fromJSON(*llvm::json::parse("4.0"));
  ASSERT_TRUE(bool(Integral));
  EXPECT_EQ(*Integral, Value::real(4.0));
  auto B = Value::fromJSON(llvm::json::Value(true));
  ASSERT_TRUE(bool(B));
  EXPECT_EQ(B->kind(), Value::Kind::Bool);
  auto Bad = Value::fromJSON(llvm::json::Array{1});
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(llvm::toString(Bad.takeError()).find("[1]"), std::string::npos);
}

TEST(ValueTest, JSONRoundTrip) {
  for (const Value &V : {Value::integer(7), Value::real(2.25),
                         Value::boolean(false), Value::string("x")}) {
    auto Back = Value::fromJSON(V.toJSON());
    ASSERT_TRUE(bool(Back));
    EXPECT_EQ(Back->kind(), V.kind());
    EXPECT_EQ(*Back, V);
  }
}
