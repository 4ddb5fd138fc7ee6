//===- ArgumentsTest.cpp - A launch's argument values, for the model ------===//
#include "report/Arguments.h"

#include <gtest/gtest.h>

using namespace metacu::report;

namespace {

using Args = std::vector<std::optional<int64_t>>;

TEST(ArgumentsTest, LaunchArgumentsByPosition) {
  auto A = parseArguments("_,67108864,,0x10,-2");
  ASSERT_TRUE(bool(A)) << llvm::toString(A.takeError());
  EXPECT_EQ(*A, (Args{std::nullopt, 67108864, std::nullopt, 16, -2}));
  auto Bad = parseArguments("_,n");
  ASSERT_FALSE(bool(Bad));
  EXPECT_EQ(llvm::toString(Bad.takeError()),
            "'n': an argument is an integer or _");
}

TEST(ArgumentsTest, TheProblemSizeGoesToIntegerParametersInOrder) {
  // reduce_gs(const float*, int, float*): n is the second argument.
  EXPECT_EQ(integerArguments("_Z9reduce_gsPKfiPf", {1 << 26}),
            (Args{std::nullopt, 1 << 26, std::nullopt}));
  // (image_map, float*, int, int): a structure is no integer.
  EXPECT_EQ(integerArguments("_Z1kN6metacu3dma9image_mapEPfii", {4096, 2048}),
            (Args{std::nullopt, std::nullopt, 4096, 2048}));
  // size_t is unsigned long; integer parameters beyond the sizes stay
  // unknown.
  EXPECT_EQ(integerArguments("_Z1kPfmi", {100}),
            (Args{std::nullopt, 100, std::nullopt}));
}

TEST(ArgumentsTest, NoValuesWhereTheSignatureCannotTakeThem) {
  // Fewer integer parameters than sizes, a float, no sizes, a name that
  // does not demangle (extern "C").
  EXPECT_TRUE(integerArguments("_Z4axpyfPKfPf", {1 << 24}).empty());
  EXPECT_TRUE(integerArguments("_Z1kPfi", {4096, 4096}).empty());
  EXPECT_TRUE(integerArguments("_Z1kPfi", {}).empty());
  EXPECT_TRUE(integerArguments("reduce", {4096}).empty());
  EXPECT_TRUE(integerArguments("_Z1kv", {4096}).empty());
}

} // namespace
