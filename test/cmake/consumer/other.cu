// The second source of the target sharing the dialect header tiles.cuh.
#include <consumer/tiles.cuh>

__global__ void other(int* out) {
  @meta for (int i = 0; i < consumer_tile / 4; ++i)
    out[@(i)] = tile_base(@(i));
}
