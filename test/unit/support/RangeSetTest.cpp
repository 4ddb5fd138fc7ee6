#include "support/RangeSet.h"

#include "gtest/gtest.h"

namespace metacu {
namespace {

// The answers are anyContains's on the ranges as given, whatever their
// order, overlaps and nesting.
TEST(RangeSetTest, AnswersAsAnyContainsDoes) {
  std::vector<Range> Given = {{40, 50}, {10, 20}, {12, 15}, {18, 25},
                              {30, 30}, {25, 27}, {60, 61}, {45, 70}};
  RangeSet Set(Given);
  for (unsigned Offset = 0; Offset < 80; ++Offset)
    EXPECT_EQ(Set.contains(Offset), anyContains(Given, Offset))
        << "offset " << Offset;
}

TEST(RangeSetTest, EmptyHoldsNothing) {
  RangeSet Set({{5, 5}});
  EXPECT_TRUE(Set.empty());
  EXPECT_FALSE(Set.contains(5));
  EXPECT_FALSE(RangeSet({}).contains(0));
}

} // namespace
} // namespace metacu
