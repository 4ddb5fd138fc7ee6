// A condition that tests another build's name and the architecture
// together becomes this build's 'if codegen' chain under `#if` of its
// names, the conditional as written its `#elif` (mixed_conditions.cu):
// its branches come twice. `#line` directives give every line its number
// in the original, in the chain, in the conditional as written and below
// it, so that __LINE__ (asserts, ggml's NO_DEVICE_CODE, CUTLASS's
// barrier.h), __builtin_LINE() and -lineinfo read what they read before:
// the PTX of the numbers stored below is the original's.
// OTHER-BUILD: -DGGML_USE_HIP -DGGML_USE_MUSA
#include <cuda_runtime.h>

#define WHERE() (__LINE__ * 10)

__device__ int stored(int *P, int X) {
#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800 // AUDIT: statement
  P[0] = __LINE__;
  X += WHERE();
#elif __CUDA_ARCH__ >= 750
  P[0] = __LINE__;
#else
  P[0] = -__LINE__;
#endif
  P[1] = __LINE__;
  return X + __builtin_LINE();
}

__device__ int second(int *P, int X) {
#if defined(GGML_USE_MUSA) || __CUDA_ARCH__ >= 900 // AUDIT: local-declaration
  const int Scale = __LINE__;
#else
  const int Scale = 2 * __LINE__;
#endif
  P[2] = WHERE();
  return X * Scale;
}

__global__ void kernel(int *P) {
  P[3] = stored(P + 4, P[5]) + second(P + 6, P[7]);
  P[8] = __LINE__;
}
