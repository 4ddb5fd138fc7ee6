// Warp and block reductions.
#pragma once
#include "util.cuh"

__device__ __forceinline__ float bk_warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__device__ __forceinline__ int bk_warp_sum(int v) {
#ifdef BK_CP_ASYNC_AVAILABLE // AUDIT: statement
  return __reduce_add_sync(0xffffffffu, v);
#else
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
#endif
}

template <int BLOCK> __device__ float bk_block_sum(float v, float *smem) {
  v = bk_warp_sum(v);
  if (bk_lane(threadIdx.x) == 0)
    smem[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < BLOCK / 32 ? smem[threadIdx.x] : 0.f;
  return bk_warp_sum(v);
}
