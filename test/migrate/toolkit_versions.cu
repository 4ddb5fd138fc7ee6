// A condition that tests the toolkit's version and the architecture
// together (CUTLASS's `__CUDA_ARCH__ >= 900 && (__CUDACC_VER_MAJOR__ >=
// 12)`): every pass defines the version as the same integer, so the 'if
// codegen' chain goes under `#if __CUDACC_VER_MAJOR__ == 13` (this
// toolkit's), and the conditional as written follows as its `#elif`,
// which another toolkit preprocesses as before. A name some pass defines
// with no one integer value stays (its value has no spelling).
#include <cuda_runtime.h>

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && (__CUDACC_VER_MAJOR__ >= 12) // AUDIT: macro-definition
#define BARRIER_ENABLED 1
#else
#define BARRIER_ENABLED 0
#endif

__device__ int prefetched(const int *P, int X) {
#if (__CUDACC_VER_MAJOR__ > 11) && defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800) // AUDIT: statement
  X += __ldg(P);
#pragma unroll
  for (int I = 1; I < 3; ++I)
    X += P[I];
#else
  X += P[0];
#endif
  return X;
}

// A version of zero (the toolkit's minor one) is spelled with 'defined'.
__device__ int minor(int X) {
#if __CUDACC_VER_MAJOR__ > 11 && __CUDACC_VER_MINOR__ >= 0 && __CUDA_ARCH__ >= 900 // AUDIT: statement
  X *= 3;
#endif
  return X;
}

__global__ void kernel(int *P) {
  P[0] = prefetched(P + 1, BARRIER_ENABLED) + minor(P[5]);
}
