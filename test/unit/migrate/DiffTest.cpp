//===- DiffTest.cpp - Unified diffs of line edits -------------------------===//
#include "migrate/Diff.h"

#include "gtest/gtest.h"

using namespace metacu;

namespace {

TEST(DiffTest, DiffShowsEachEditWithContext) {
  std::string Old = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n";
  std::vector<Edit> Edits = {{2, 4, "B\n"}, {22, 24, ""}};
  EXPECT_EQ(unifiedDiff("x.cu", Old, Edits), "--- a/x.cu\n+++ b/x.cu\n"
                                             "@@ -1,5 +1,5 @@\n"
                                             " a\n-b\n+B\n c\n d\n e\n"
                                             "@@ -9,4 +9,3 @@\n"
                                             " i\n j\n k\n-l\n");
  EXPECT_EQ(unifiedDiff("x.cu", Old, {}), "");
}

TEST(DiffTest, NearbyEditsShareAHunk) {
  std::string Old = "a\nb\nc\nd\ne\nf\ng\nh\n";
  std::vector<Edit> Edits = {{2, 4, "B\n"}, {12, 14, "G\n"}};
  EXPECT_EQ(unifiedDiff("x.cu", Old, Edits), "--- a/x.cu\n+++ b/x.cu\n"
                                             "@@ -1,8 +1,8 @@\n"
                                             " a\n-b\n+B\n c\n d\n e\n f\n"
                                             "-g\n+G\n h\n");
}

TEST(DiffTest, DeletionsAndALastLineWithoutNewline) {
  std::string Old = "a\nb\nc";
  EXPECT_EQ(unifiedDiff("x.cu", Old, {{2, 4, ""}}),
            "--- a/x.cu\n+++ b/x.cu\n@@ -1,3 +1,2 @@\n a\n-b\n c\n");
  EXPECT_EQ(unifiedDiff("x.cu", Old, {{4, 5, "C\n"}}),
            "--- a/x.cu\n+++ b/x.cu\n@@ -1,3 +1,3 @@\n a\n b\n-c\n+C\n");
}

TEST(DiffTest, EditsInsideALineShowAsTheWholeLine) {
  // A brace put beside a branch's code and a token replaced on one line.
  std::string Old = "a\nbb cc\nd\n";
  std::vector<Edit> Edits = {{2, 2, "{ "}, {5, 7, "CC"}, {9, 9, " }"}};
  EXPECT_EQ(unifiedDiff("x.cu", Old, Edits), "--- a/x.cu\n+++ b/x.cu\n"
                                             "@@ -1,3 +1,3 @@\n"
                                             " a\n-bb cc\n+{ bb CC\n"
                                             "-d\n+d }\n");
}

} // namespace
