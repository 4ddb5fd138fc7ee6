#pragma once
// A header in the dialect that kernel.cu and other.cu share, found through
// the target's include directories; its own helper sits beside it.
#include "tiles_detail.h"

@meta constexpr int consumer_tile = 8;

__device__ inline int tile_base(int i) {
  return i * @(consumer_tile) + tiles_detail_offset;
}
