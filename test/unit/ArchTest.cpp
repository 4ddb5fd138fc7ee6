#include "Arch.h"
#include <gtest/gtest.h>
using namespace metacu;
TEST(ArchTest, ParsesAndSorts) {
  auto L = ArchList::parse("90,75,80");
  ASSERT_TRUE(bool(L));
  EXPECT_EQ(L->names(), "sm_75, sm_80, sm_90");
}
