// The arrays problem's set-up on every core (metacu/tune.h): the inputs'
// sequence and the checked elements are those one step at a time makes,
// without a GPU (the problem itself is made on the GPU only).
#include <metacu/tune.h>

#include <gtest/gtest.h>

namespace {

using metacu::tune::checked_indices;
using metacu::tune::lcg_jump;
using metacu::tune::parts;
using metacu::tune::uniform_fill;

/// The sequence's next \p n values after \p state, one step at a time.
std::vector<float> stepped(unsigned &state, size_t n) {
  std::vector<float> v(n);
  for (float &x : v) {
    state = state * 1664525u + 1013904223u;
    x = float(state >> 8) / float(1u << 23) - 1.0f;
  }
  return v;
}

TEST(TuneSetup, JumpIsSteps) {
  unsigned s = 2024u;
  for (size_t k = 0; k < 1000; ++k) {
    EXPECT_EQ(lcg_jump(2024u, k), s) << "after " << k << " steps";
    s = s * 1664525u + 1013904223u;
  }
}

TEST(TuneSetup, UniformInPartsIsTheSequence) {
  // Sizes in one part and in several (parts() cuts 64 Ki elements and
  // more), each call going on from the last one's state.
  unsigned state = 2024u, expected = 2024u;
  for (size_t n : {size_t(5), size_t(1) << 16, (size_t(1) << 20) + 7, size_t(3),
                   size_t(5) << 20}) {
    std::vector<float> v(n);
    state = uniform_fill(state, v);
    ASSERT_EQ(v, stepped(expected, n)) << n << " values";
    ASSERT_EQ(state, expected) << "the state after " << n << " values";
  }
}

TEST(TuneSetup, CheckedIndicesInOrder) {
  size_t n = (size_t(3) << 20) + 11;
  auto every7 = [](size_t i) { return i % 7 == 3; };
  std::vector<size_t> want;
  for (size_t i = 0; i < n; ++i)
    if (every7(i))
      want.push_back(i);
  EXPECT_EQ(checked_indices(n, every7), want);
  EXPECT_EQ(checked_indices(10, {}),
            (std::vector<size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_TRUE(checked_indices(0, every7).empty());
  EXPECT_EQ(parts(10), 1u) << "small: one part, no thread";
}

} // namespace
