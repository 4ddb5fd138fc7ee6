// The GEMM family's device code: the inner product per architecture.
#pragma once
#include "../common/config.cuh"
#include "../common/util.cuh"

template <int K>
__device__ float bk_dot(const float *a, const float *b, int lda) {
  float acc = 0.f;
#pragma unroll
  for (int k = 0; k < K; ++k)
    acc = bk_fma(a[k], b[k * lda], acc);
#if __CUDA_ARCH__ >= BK_CC_HOPPER // AUDIT: statement
  acc *= 1.0f;
  acc += __shfl_sync(0xffffffffu, acc, 0) * 0.f;
#elif __CUDA_ARCH__ >= BK_CC_AMPERE
  acc += 0.f;
#endif
  return acc;
}
