// Reads a data file at generation time, includes a header next to it and
// one from the target's include directories, and uses a definition of the
// target in meta code: each must reach metacu through metacu_target_sources.
#include <cstdio>

#include <consumer/extra.h>
#include <consumer/tiles.cuh>
#include "local.h"

@meta auto tuning = metacu::load_json("tuning.json");

__global__ void scale(int* out) {
  @meta int items = tuning["items"].get<int>();
  @meta for (int i = 0; i < items; ++i)
    out[threadIdx.x * items + i] = @(i * CONSUMER_SCALE + local_offset + extra_offset);
}

int main() {
  std::printf("items per thread: %d\n", @(tuning["items"].get<int>()));
  std::printf("tile: %d\n", @(consumer_tile));
}
