#include "support/RangeSet.h"

#include "gtest/gtest.h"

namespace metacu {
namespace {

/// Whether one of \p Ranges holds \p Offset, range by range.
bool someHolds(const std::vector<Range> &Ranges, unsigned Offset) {
  return llvm::any_of(Ranges,
                      [&](const Range &R) { return R.contains(Offset); });
}

const std::vector<Range> Given = {{40, 50}, {10, 20}, {12, 15}, {18, 25},
                                  {30, 30}, {25, 27}, {60, 61}, {45, 70}};

// The answers are those of the ranges as given, whatever their order,
// overlaps and nesting.
TEST(RangeSetTest, AnswersAsTheRangesGiven) {
  RangeSet Set(Given);
  for (unsigned Offset = 0; Offset < 80; ++Offset)
    EXPECT_EQ(Set.contains(Offset), someHolds(Given, Offset))
        << "offset " << Offset;
}

TEST(RangeSetTest, AddingAnswersAsMakingAtOnce) {
  RangeSet Added;
  for (const Range &R : Given)
    Added.add(R);
  RangeSet Made(Given);
  ASSERT_EQ(Added.ranges().size(), Made.ranges().size());
  for (size_t I = 0; I < Made.ranges().size(); ++I) {
    EXPECT_EQ(Added.ranges()[I].Begin, Made.ranges()[I].Begin);
    EXPECT_EQ(Added.ranges()[I].End, Made.ranges()[I].End);
  }
}

// The regions one preprocessing skips come back as given, one that ends
// where the next begins included: a caller asks where each begins.
TEST(RangeSetTest, FindGivesTheRangeGivenWhereNoneOverlap) {
  RangeSet Set;
  Set.add({5, 10});
  Set.add({10, 20});
  Set.add({30, 40});
  EXPECT_EQ(Set.find(10)->Begin, 10u);
  EXPECT_EQ(Set.find(9)->Begin, 5u);
  EXPECT_EQ(Set.find(35)->End, 40u);
  EXPECT_FALSE(Set.find(25));
  EXPECT_EQ(Set.ranges().size(), 3u);
}

TEST(RangeSetTest, EmptyHoldsNothing) {
  RangeSet Set({{5, 5}});
  EXPECT_TRUE(Set.empty());
  EXPECT_FALSE(Set.contains(5));
  EXPECT_FALSE(RangeSet(std::vector<Range>()).contains(0));
  EXPECT_FALSE(RangeSet().contains(0));
}

} // namespace
} // namespace metacu
