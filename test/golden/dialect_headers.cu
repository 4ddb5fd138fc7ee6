// RUN: %check-golden %s -- --arch 75,90
// Headers in the dialect are spliced in place of their #include, under
// #line directives naming them; guards and '#pragma once' are honoured.
#include "Inputs/dialect/tiles.cuh"
#include "Inputs/dialect/tiles.cuh"
#include "Inputs/dialect/once.cuh"

__global__ void fill(float* out) {
  @meta for (int i = 0; i < tile_elems; ++i)
    out[threadIdx.x * @(tile_elems) + i] = @(i * scale_of(tile_elems)) * halve(1.0f);
  {
    @meta int reps = 2;
#include "Inputs/dialect/body.inc"
  }
  {
    @meta int reps = 3;
#include "Inputs/dialect/body.inc"
  }
#if 0
#include "Inputs/dialect/never.cuh"
#endif
  out[0] += lanes_per_tile();
}
