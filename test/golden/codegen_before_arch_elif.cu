// RUN: %check-golden %s -- --arch 75,80,90
// A branch before a conditional's first test of __CUDA_ARCH__ is chosen
// alike in every pass, so a meta construct may stand there: `metacu
// migrate` puts the 'if codegen' chain for this build there, the
// conditional as written, for other builds, in its '#elif'.
#include <cuda_runtime.h>

__device__ int f(int x) {
#if !defined(GGML_USE_MUSA)
  if codegen ((int)__nvvm_arch >= 80) {
  x += 1;
  } else {
  x += 2;
  }
#elif __CUDA_ARCH__ >= 800
  x += 1;
#else
  x += 2;
#endif
  return x;
}

__global__ void k(int *p) { p[0] = f(p[1]); }
