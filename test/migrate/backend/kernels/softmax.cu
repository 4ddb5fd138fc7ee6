// Softmax over rows of 256 columns.
#include "softmax.cuh"

extern "C" __global__ void bk_softmax(const float *x, float *y) {
  __shared__ float smem[32];
  float v = x[blockIdx.x * 256 + threadIdx.x];
  float m = v;
  for (int o = 16; o > 0; o >>= 1)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  float e = bk_exp(v - m);
  float s = bk_block_sum<256>(e, smem);
  y[blockIdx.x * 256 + threadIdx.x] = e / s;
}
