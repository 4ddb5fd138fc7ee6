// Layer norm, with its host-side launch arithmetic.
#include "../common/config.cuh"
#include "../common/reduce.cuh"
#include <cstdio>

extern "C" __global__ void bk_norm(const float *x, float *y, float eps) {
  __shared__ float smem[32];
  float v = x[blockIdx.x * 256 + threadIdx.x];
  float mean = bk_block_sum<256>(v, smem) / 256.f;
  float d = v - mean;
  float var = bk_block_sum<256>(d * d, smem + 8) / 256.f;
  y[blockIdx.x * 256 + threadIdx.x] = d * rsqrtf(var + eps);
}

__host__ __device__ inline void bk_norm_trace(int rows) {
#if !defined(__CUDA_ARCH__) // AUDIT: host-device-split
  std::printf("norm over %d rows\n", rows);
#endif
}

__global__ void bk_norm_traced(int rows) {
  bk_norm_trace(rows);
}

int bk_norm_blocks(int rows) {
  bk_norm_trace(rows);
  return rows * bk_warp_size() / 32;
}
