// Row reductions.
#include "../common/reduce.cuh"

extern "C" __global__ void bk_row_sum(const float *x, float *y, int cols) {
  __shared__ float smem[32];
  float v = 0.f;
  for (int i = threadIdx.x; i < cols; i += blockDim.x)
    v += x[blockIdx.x * cols + i];
  v = bk_block_sum<256>(v, smem);
  if (threadIdx.x == 0)
    y[blockIdx.x] = v;
}

extern "C" __global__ void bk_row_count(const int *x, int *y, int cols) {
  int v = 0;
  for (int i = bk_lane(threadIdx.x); i < cols; i += bk_warp_size())
    v += x[blockIdx.x * cols + i] != 0;
  v = bk_warp_sum(v);
  if (bk_lane(threadIdx.x) == 0)
    atomicAdd(y + blockIdx.x, v);
}
