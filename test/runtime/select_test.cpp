// Host-side tests of metacu/select.h: best-fit lookup, architecture tags and
// the compile-time unroll helper.
#include <metacu/select.h>

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using metacu::loop_cmp;
using metacu::select;
using metacu::sm_base;
using metacu::sm_t;
using metacu::unroll_for;

namespace {

//===----------------------------------------------------------------------===//
// select
//===----------------------------------------------------------------------===//

struct details_t {
  int nt;
  int vt;
};

const std::map<int, details_t> kernel_config{
    {75, {128, 4}}, {80, {256, 8}}, {90, {512, 16}}};

std::string select_error(const std::map<int, details_t> &table, int arch) {
  try {
    select(table, arch);
  } catch (const std::out_of_range &e) {
    return e.what();
  }
  return "no exception";
}

TEST(Select, ExactKey) {
  EXPECT_EQ(select(kernel_config, 75).nt, 128);
  EXPECT_EQ(select(kernel_config, 80).nt, 256);
  EXPECT_EQ(select(kernel_config, 90).nt, 512);
}

TEST(Select, BestFitIsGreatestKeyNotAbove) {
  EXPECT_EQ(select(kernel_config, 79).nt, 128);
  EXPECT_EQ(select(kernel_config, 86).nt, 256);
  EXPECT_EQ(select(kernel_config, 89).nt, 256);
  EXPECT_EQ(select(kernel_config, 100).nt, 512);
  EXPECT_EQ(select(kernel_config, 121).nt, 512);
}

TEST(Select, ReturnsTheTableEntryItself) {
  EXPECT_EQ(&select(kernel_config, 86), &kernel_config.at(80));
}

TEST(Select, BelowFirstKeyThrows) {
  EXPECT_THROW(select(kernel_config, 74), std::out_of_range);
  EXPECT_EQ(select_error(kernel_config, 70),
            "metacu::select: no entry for sm_70; the table starts at sm_75");
}

TEST(Select, EmptyTableThrows) {
  EXPECT_EQ(select_error({}, 90),
            "metacu::select: no entry for sm_90; the table is empty");
}

TEST(Select, AnyValueType) {
  const std::map<int, std::string> names{{75, "turing"}, {90, "hopper"}};
  EXPECT_EQ(select(names, 89), "turing");
  EXPECT_EQ(select(names, 90), "hopper");
}

//===----------------------------------------------------------------------===//
// Problem sizes
//===----------------------------------------------------------------------===//

using metacu::nearest_size;
using metacu::sized;

const std::vector<std::vector<long long>> tuned_1d{
    {1 << 18}, {1 << 20}, {1 << 22}};

TEST(NearestSize, ExactSizesPickThemselves) {
  EXPECT_EQ(nearest_size(tuned_1d, {1 << 18}), 0u);
  EXPECT_EQ(nearest_size(tuned_1d, {1 << 20}), 1u);
  EXPECT_EQ(nearest_size(tuned_1d, {1 << 22}), 2u);
}

TEST(NearestSize, NearestByRatioNotDifference) {
  // 2^19 is a factor 2 from both 2^18 and 2^20: one below it goes down,
  // one above it up.
  EXPECT_EQ(nearest_size(tuned_1d, {(1 << 19) - 1}), 0u);
  EXPECT_EQ(nearest_size(tuned_1d, {(1 << 19) + 1}), 1u);
  // 600,000 is nearer 2^18 in difference (337,856 against 448,576) but
  // a factor 2.29 above it and 1.75 below 2^20.
  EXPECT_EQ(nearest_size(tuned_1d, {600000}), 1u);
}

TEST(NearestSize, TheMiddleGoesToTheLargerSize) {
  EXPECT_EQ(nearest_size(tuned_1d, {1 << 19}), 1u);
  EXPECT_EQ(nearest_size(tuned_1d, {1 << 21}), 2u);
  // The order of the list does not matter.
  EXPECT_EQ(nearest_size({{1 << 20}, {1 << 18}}, {1 << 19}), 0u);
}

TEST(NearestSize, OutsideTheRangeTakesTheEnds) {
  EXPECT_EQ(nearest_size(tuned_1d, {1}), 0u);
  EXPECT_EQ(nearest_size(tuned_1d, {0}), 0u);
  EXPECT_EQ(nearest_size(tuned_1d, {-5}), 0u);
  EXPECT_EQ(nearest_size(tuned_1d, {1ll << 40}), 2u);
}

TEST(NearestSize, ShapesSumTheLogRatiosOfTheirDimensions) {
  const std::vector<std::vector<long long>> shapes{
      {1024, 1024}, {4096, 256}, {4096, 4096}};
  EXPECT_EQ(nearest_size(shapes, {1024, 1024}), 0u);
  // A wide, flat problem is nearest the wide, flat shape, though its
  // product is that of the square one.
  EXPECT_EQ(nearest_size(shapes, {4096, 300}), 1u);
  EXPECT_EQ(nearest_size(shapes, {3000, 3000}), 2u);
}

TEST(NearestSize, Errors) {
  EXPECT_THROW(nearest_size({}, {1}), std::out_of_range);
  EXPECT_THROW(nearest_size(tuned_1d, {1, 2}), std::invalid_argument);
}

TEST(SelectBySize, ArchitectureThenNearestSize) {
  const std::map<int, std::vector<sized<int>>> table{
      {80, {{{1 << 20}, 801}}},
      {90, {{{1 << 18}, 901}, {{1 << 20}, 902}, {{1 << 22}, 903}}}};
  EXPECT_EQ(select(table, 90, {1 << 18}), 901);
  EXPECT_EQ(select(table, 100, {3 << 20}), 903);
  EXPECT_EQ(select(table, 90, {700000}), 902);
  // sm_86 takes sm_80's entries, whose one size serves every problem.
  EXPECT_EQ(select(table, 86, {1 << 18}), 801);
  EXPECT_THROW(select(table, 75, {1 << 18}), std::out_of_range);
}

//===----------------------------------------------------------------------===//
// sm_t
//===----------------------------------------------------------------------===//

constexpr int known[] = {75, 80, 86, 87, 89, 90, 100, 103, 110, 120, 121};

template <std::size_t I = 0> constexpr bool chain_is_linear() {
  if constexpr (I + 1 == std::size(known)) {
    return true;
  } else {
    using lower = sm_t<known[I]>;
    using upper = sm_t<known[I + 1]>;
    return std::is_base_of_v<lower, upper> &&
           !std::is_base_of_v<upper, lower> && chain_is_linear<I + 1>();
  }
}

static_assert(chain_is_linear(), "each known tag derives from the previous");
static_assert(std::is_base_of_v<sm_base, sm_t<75>>);
static_assert(std::is_same_v<std::remove_cv_t<decltype(sm_t<75>::value)>, int>);
static_assert(sm_t<75>::value == 75 && sm_t<90>::value == 90 &&
              sm_t<121>::value == 121 && sm_t<88>::value == 88);

// Unknown numbers attach below the greatest known tag under them.
static_assert(std::is_base_of_v<sm_t<87>, sm_t<88>>);
static_assert(!std::is_base_of_v<sm_t<89>, sm_t<88>>);
static_assert(std::is_base_of_v<sm_t<121>, sm_t<130>>);
static_assert(std::is_base_of_v<sm_base, sm_t<70>> &&
              !std::is_base_of_v<sm_t<75>, sm_t<70>>);

constexpr int pick(sm_base) { return 0; }
constexpr int pick(sm_t<75>) { return 75; }
constexpr int pick(sm_t<90>) { return 90; }

static_assert(pick(sm_t<100>{}) == 90, "usable in constant expressions");

TEST(ArchTags, OverloadResolutionPicksMostDerived) {
  EXPECT_EQ(pick(sm_t<75>{}), 75);
  EXPECT_EQ(pick(sm_t<80>{}), 75);
  EXPECT_EQ(pick(sm_t<89>{}), 75);
  EXPECT_EQ(pick(sm_t<90>{}), 90);
  EXPECT_EQ(pick(sm_t<100>{}), 90);
  EXPECT_EQ(pick(sm_t<121>{}), 90);
}

TEST(ArchTags, UnknownNumbersFallBack) {
  EXPECT_EQ(pick(sm_t<88>{}), 75);
  EXPECT_EQ(pick(sm_t<95>{}), 90);
  EXPECT_EQ(pick(sm_t<130>{}), 90);
  EXPECT_EQ(pick(sm_t<70>{}), 0);
}

TEST(ArchTags, AgreesWithSelect) {
  const std::map<int, int> table{{75, 75}, {90, 90}};
  EXPECT_EQ(pick(sm_t<86>{}), select(table, 86));
  EXPECT_EQ(pick(sm_t<103>{}), select(table, 103));
}

//===----------------------------------------------------------------------===//
// unroll_for
//===----------------------------------------------------------------------===//

template <loop_cmp Cmp, class T> bool holds(T i, T end) {
  switch (Cmp) {
  case loop_cmp::lt:
    return i < end;
  case loop_cmp::le:
    return i <= end;
  case loop_cmp::gt:
    return i > end;
  case loop_cmp::ge:
    return i >= end;
  case loop_cmp::ne:
    return i != end;
  }
  return false;
}

// The values the plain C++ loop takes, run at run time.
template <class T, T Begin, T End, T Step, loop_cmp Cmp>
std::vector<long long> loop_values() {
  std::vector<long long> values;
  for (T i = Begin; holds<Cmp>(i, End); i += Step)
    values.push_back(i);
  return values;
}

template <class T, T Begin, T End, T Step, loop_cmp Cmp>
std::vector<long long> unrolled_values() {
  std::vector<long long> values;
  unroll_for<T, Begin, End, Step, Cmp>([&](auto i) {
    static_assert(std::is_same_v<typename decltype(i)::value_type, T>);
    values.push_back(decltype(i)::value);
  });
  return values;
}

template <class T, T Begin, T End, T Step, loop_cmp Cmp>
void expect_like_loop(const std::vector<long long> &expected) {
  auto values = unrolled_values<T, Begin, End, Step, Cmp>();
  EXPECT_EQ(values, expected);
  EXPECT_EQ(values, (loop_values<T, Begin, End, Step, Cmp>()));
}

using V = std::vector<long long>;

TEST(UnrollFor, LessThan) {
  expect_like_loop<int, 0, 4, 1, loop_cmp::lt>({0, 1, 2, 3});
  expect_like_loop<int, 0, 10, 3, loop_cmp::lt>({0, 3, 6, 9});
  expect_like_loop<int, -5, 5, 4, loop_cmp::lt>({-5, -1, 3});
  expect_like_loop<unsigned, 2u, 11u, 4u, loop_cmp::lt>({2, 6, 10});
}

TEST(UnrollFor, LessOrEqual) {
  expect_like_loop<int, 0, 9, 3, loop_cmp::le>({0, 3, 6, 9});
  expect_like_loop<int, 0, 10, 3, loop_cmp::le>({0, 3, 6, 9});
  expect_like_loop<int, 5, 5, 1, loop_cmp::le>({5});
}

TEST(UnrollFor, GreaterThanNegativeStep) {
  expect_like_loop<int, 10, 0, -3, loop_cmp::gt>({10, 7, 4, 1});
  expect_like_loop<int, 3, -3, -2, loop_cmp::gt>({3, 1, -1});
  expect_like_loop<long long, 0, -4, -1, loop_cmp::gt>({0, -1, -2, -3});
}

TEST(UnrollFor, GreaterOrEqualNegativeStep) {
  expect_like_loop<int, 10, 0, -5, loop_cmp::ge>({10, 5, 0});
  expect_like_loop<int, 10, 1, -5, loop_cmp::ge>({10, 5});
  expect_like_loop<short, 2, 0, -1, loop_cmp::ge>({2, 1, 0});
}

TEST(UnrollFor, NotEqual) {
  expect_like_loop<int, 0, 8, 2, loop_cmp::ne>({0, 2, 4, 6});
  expect_like_loop<int, 8, 0, -2, loop_cmp::ne>({8, 6, 4, 2});
  // Unsigned arithmetic wraps, and so does the unrolled loop: 254 + 4 == 2.
  expect_like_loop<unsigned char, 250, 2, 4, loop_cmp::ne>({250, 254});
}

TEST(UnrollFor, ZeroTrips) {
  expect_like_loop<int, 5, 5, 1, loop_cmp::lt>({});
  expect_like_loop<int, 9, 0, 1, loop_cmp::lt>({});
  expect_like_loop<int, 6, 5, 1, loop_cmp::le>({});
  expect_like_loop<int, 0, 0, -1, loop_cmp::gt>({});
  expect_like_loop<int, -1, 0, -1, loop_cmp::ge>({});
  expect_like_loop<int, 3, 3, 1, loop_cmp::ne>({});
  // A step of the wrong sign is harmless when the condition fails at once.
  expect_like_loop<int, 4, 0, -1, loop_cmp::lt>({});
}

TEST(UnrollFor, WideValues) {
  constexpr long long big = 1LL << 40;
  expect_like_loop<long long, -big, 2 * big, big, loop_cmp::lt>({-big, 0, big});
}

TEST(UnrollFor, CallsInOrderOncePerTrip) {
  std::vector<int> calls;
  unroll_for<int, 0, 5, 1, loop_cmp::lt>(
      [&](auto i) { calls.push_back(decltype(i)::value); });
  EXPECT_EQ(calls, (std::vector<int>{0, 1, 2, 3, 4}));

  calls.clear();
  unroll_for<int, 4, 0, -1, loop_cmp::ge>(
      [&](auto i) { calls.push_back(decltype(i)::value); });
  EXPECT_EQ(calls, (std::vector<int>{4, 3, 2, 1, 0}));
}

TEST(UnrollFor, IndexIsAConstantExpression) {
  int sizes = 0;
  unroll_for<int, 1, 4, 1, loop_cmp::le>([&](auto i_) {
    constexpr int i = decltype(i_)::value;
    int storage[i]; // would not compile for a run-time bound
    sizes += static_cast<int>(sizeof storage / sizeof storage[0]);
  });
  EXPECT_EQ(sizes, 1 + 2 + 3 + 4);
}

constexpr int sum_of_squares() {
  int sum = 0;
  unroll_for<int, 1, 5, 1, loop_cmp::lt>([&](auto i) { sum += i * i; });
  return sum;
}
static_assert(sum_of_squares() == 1 + 4 + 9 + 16, "usable in constexpr code");

} // namespace
