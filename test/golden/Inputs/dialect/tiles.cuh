// A header in the dialect: meta declarations the includer's meta code
// uses after the #include, ordinary code expanded per architecture, and a
// nested dialect header. Guarded, so a second #include expands nothing.
#ifndef TILES_CUH
#define TILES_CUH
#include "once.cuh"

@meta constexpr int tile_elems = 4;
@meta constexpr int scale_of(int n) { return n * 2; }

__device__ inline int lanes_per_tile() {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    return 32;
  } else {
    return @(tile_elems * 4);
  }
}
#endif
