// A header in the dialect, found through the target's include directories.
#pragma once

@meta constexpr int tile_count = 2;

__device__ inline int tile_base(int i) {
  return i * @(tile_count * 8);
}
