// Uses a dialect header of the project's, outside this directory.
#include <rebuild/tiles.cuh>

__global__ void fill(int* out) {
  @meta for (int i = 0; i < tile_count; ++i)
    out[threadIdx.x * @(tile_count) + i] = tile_base(i);
}
