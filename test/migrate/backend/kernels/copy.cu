// Tiled copies through shared memory.
#include "../common/memory.cuh"
#include "../common/util.cuh"
#include "../common/shared.h"

extern "C" __global__ void bk_copy(const float *x, float *y, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * 256 + threadIdx.x;
  if (i < n)
    bk_copy4(tile + threadIdx.x, x + i);
  bk_copy_wait();
  if (i < n)
    y[i] = tile[threadIdx.x] * bk_unroll_here() + bk_lanes(bk_step()) +
           bk_line() + bk_popc(n);
}
