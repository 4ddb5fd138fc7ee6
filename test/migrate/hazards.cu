// Constant and hazardous uses of __CUDA_ARCH__, and its value in code.
#include <cuda_runtime.h>

__device__ int oldArch(int X) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 350 // AUDIT: constant
  return __ldg(&X);
#else
  return X;
#endif
}

__device__ int wrongScale(int X) {
#if __CUDA_ARCH__ >= 80 // AUDIT: hazard
  return X + 1;
#else
  return X;
#endif
}

int hostOnly() {
#ifdef __CUDA_ARCH__ // AUDIT: hazard
  return 1;
#else
  return 0;
#endif
}

__global__ void hazardKernel(int *Out) {
  Out[0] = oldArch(Out[1]) + wrongScale(Out[2]);
  Out[3] = __CUDA_ARCH__; // AUDIT: value
}
