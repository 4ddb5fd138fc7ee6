//===- SourceMapTest.cpp - Generator offsets back to the input ------------===//
#include "expand/SourceMap.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

TEST(SourceMapTest, VerbatimPieceMapsByteForByte) {
  SourceMap M;
  M.addVerbatim(/*GenBegin=*/10, /*InputBegin=*/100, /*Length=*/5);
  EXPECT_EQ(M.toInput(10), 100u);
  EXPECT_EQ(M.toInput(12), 102u);
  EXPECT_EQ(M.toInput(14), 104u);
  // Half-open: the byte after the piece is not in it.
  EXPECT_EQ(M.toInput(15), std::nullopt);
  EXPECT_EQ(M.toInput(9), std::nullopt);
}

TEST(SourceMapTest, AnchorMapsEveryByteToItsAnchor) {
  SourceMap M;
  M.addAnchor(20, 30, 7);
  EXPECT_EQ(M.toInput(20), 7u);
  EXPECT_EQ(M.toInput(29), 7u);
  EXPECT_EQ(M.toInput(30), std::nullopt);
  EXPECT_EQ(M.toInput(19), std::nullopt);
}

TEST(SourceMapTest, UnmappedOffsetsHaveNoInputPosition) {
  SourceMap M;
  EXPECT_EQ(M.toInput(0), std::nullopt);
  M.addVerbatim(0, 50, 4);
  M.addAnchor(10, 12, 3);
  // Glue between the pieces.
  EXPECT_EQ(M.toInput(4), std::nullopt);
  EXPECT_EQ(M.toInput(9), std::nullopt);
  EXPECT_EQ(M.toInput(1000), std::nullopt);
}

TEST(SourceMapTest, EmptyPiecesAreIgnored) {
  SourceMap M;
  M.addVerbatim(5, 40, 0);
  M.addAnchor(5, 5, 3);
  M.addAnchor(8, 6, 3);
  EXPECT_EQ(M.toInput(5), std::nullopt);
  EXPECT_EQ(M.toInput(6), std::nullopt);
}

TEST(SourceMapTest, VerbatimPieceWinsOverTheAnchorAroundIt) {
  // 'static_assert(... decltype(EXPR) ...)' anchored at the use, with EXPR
  // copied from the input.
  for (bool AnchorFirst : {true, false}) {
    SourceMap M;
    if (AnchorFirst)
      M.addAnchor(0, 60, 7);
    M.addVerbatim(20, 300, 10);
    if (!AnchorFirst)
      M.addAnchor(0, 60, 7);
    EXPECT_EQ(M.toInput(25), 305u) << AnchorFirst;
    EXPECT_EQ(M.toInput(5), 7u) << AnchorFirst;
    EXPECT_EQ(M.toInput(30), 7u) << AnchorFirst;
  }
}

TEST(SourceMapTest, InnermostAnchorWins) {
  for (bool OuterFirst : {true, false}) {
    SourceMap M;
    if (OuterFirst)
      M.addAnchor(0, 100, 1);
    M.addAnchor(40, 50, 2);
    if (!OuterFirst)
      M.addAnchor(0, 100, 1);
    EXPECT_EQ(M.toInput(45), 2u) << OuterFirst;
    EXPECT_EQ(M.toInput(39), 1u) << OuterFirst;
    EXPECT_EQ(M.toInput(50), 1u) << OuterFirst;
  }
}

TEST(SourceMapTest, InnermostVerbatimWinsOverAnEnclosingVerbatim) {
  SourceMap M;
  M.addVerbatim(0, 1000, 50);
  M.addVerbatim(10, 200, 5);
  EXPECT_EQ(M.toInput(12), 202u);
  EXPECT_EQ(M.toInput(20), 1020u);
}

} // namespace
