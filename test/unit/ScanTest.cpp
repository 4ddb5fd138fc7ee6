#include "Scan.h"
#include <gtest/gtest.h>
using namespace metacu;
TEST(ScanTest, Smoke) {
  SourceFile F("a.cu", "int x; @meta int y = 2;\n");
  auto S = scan(F);
  ASSERT_TRUE(bool(S));
  EXPECT_EQ(S->Nodes.size(), 2u);
}
