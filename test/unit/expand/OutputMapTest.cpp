//===- OutputMapTest.cpp - The output's places in the input, both ways ----===//
#include "expand/OutputMap.h"

#include <gtest/gtest.h>

using namespace metacu;

namespace {

/// Two copies of input line 3 ("x += v[0];" unrolled), the first in the
/// host pass only, the second in the first architecture's.
OutputMap twoCopies() {
  OutputMap M;
  unsigned F = M.fileIndex("k.cu");
  M.add({10, 20, {F, 3, 5, true}, 1});
  M.add({20, 21, {F, 3, 1, false}, 1});
  M.add({30, 40, {F, 3, 5, true}, 2});
  return M;
}

TEST(OutputMapTest, ACopiedByteMapsToItsOriginal) {
  OutputMap M = twoCopies();
  auto At = M.toInput(13);
  ASSERT_TRUE(At);
  EXPECT_EQ(At->Line, 3u);
  EXPECT_EQ(At->Col, 8u);
  EXPECT_TRUE(At->Verbatim);
  EXPECT_EQ(M.toInput(33)->Col, 8u);
}

TEST(OutputMapTest, GeneratedTextMapsToItsConstruct) {
  auto At = twoCopies().toInput(20);
  ASSERT_TRUE(At);
  EXPECT_FALSE(At->Verbatim);
  EXPECT_EQ(At->Col, 1u);
}

TEST(OutputMapTest, WhatNoPieceHoldsMapsNowhere) {
  OutputMap M = twoCopies();
  EXPECT_FALSE(M.toInput(0));
  EXPECT_FALSE(M.toInput(25));
  EXPECT_FALSE(M.toInput(40));
}

TEST(OutputMapTest, AnInputByteHasEveryCopyWithItsPasses) {
  auto Copies = twoCopies().toOutput(0, 3, 8);
  ASSERT_EQ(Copies.size(), 2u);
  EXPECT_EQ(Copies[0], std::make_pair(13u, uint64_t(1)));
  EXPECT_EQ(Copies[1], std::make_pair(33u, uint64_t(2)));
  // Just past a copied stretch (a cursor at the end of a line).
  EXPECT_EQ(twoCopies().toOutput(0, 3, 15).size(), 2u);
  EXPECT_TRUE(twoCopies().toOutput(0, 4, 8).empty());
}

TEST(OutputMapTest, ShiftMovesEveryPiece) {
  OutputMap M = twoCopies();
  M.shift(100);
  EXPECT_FALSE(M.toInput(13));
  EXPECT_EQ(M.toInput(113)->Col, 8u);
}

} // namespace
