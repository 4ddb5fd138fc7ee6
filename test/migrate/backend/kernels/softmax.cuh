// Softmax's device code.
#pragma once
#include "../common/reduce.cuh"

__device__ __forceinline__ float bk_exp(float x) {
#if __CUDA_ARCH__ >= BK_CC_AMPERE // AUDIT: statement
  return __expf(x);
#else
  return expf(x);
#endif
}
