// A branch whose condition tests another name than the architecture (a
// host compiler's, the platform's, the build's) is another build's choice
// wherever it sits: before the branches device passes compile, between
// them or after them. No pass compiles it here, and 'if codegen' over this
// build's passes alone would drop it: its directives stay a preprocessor
// conditional around the 'if codegen' chain (inside the chain's last
// 'else' after the architecture's branches), which nvcc's passes evaluate
// as before, every line where it was. A condition that tests another name
// and the architecture together is mixed_conditions.cu's form. A branch
// whose condition tests the architecture alone, or a named constant, and
// that no pass compiles (an older GPU's) is dropped as before.
#include <cuda_runtime.h>

#define CC_VOLTA 700
#ifdef GGML_USE_HIP
#define WARP 64
#else
#define WARP 32
#endif

__device__ int before(int X) {
#if defined(_MSC_VER) && !defined(__CUDA_ARCH__) // AUDIT: statement
  return X + 1;
#elif defined(__CUDA_ARCH__)
  return X + 2;
#else
  return X + 3;
#endif
}

__device__ int hipFirst(int X) {
#if defined(GGML_USE_HIP) // AUDIT: statement
  return X + 1;
#elif __CUDA_ARCH__ >= 800
  return X + 2;
#else
  return X + 3;
#endif
}

__device__ int between(int X) {
#if __CUDA_ARCH__ >= 900 // AUDIT: statement
  return X + 1;
#elif defined(GGML_USE_MUSA)
  return X + 2;
#elif __CUDA_ARCH__ >= 800
  return X + 3;
#else
  return X + 4;
#endif
}

__host__ __device__ inline int after(int X) {
#if defined(__CUDA_ARCH__) // AUDIT: host-device-split
  return X + 1;
#elif defined(_MSC_VER)
  return X + 2;
#else
  return X + 3;
#endif
}

__device__ int chosenValue(int X) {
#if WARP == 64 // AUDIT: statement
  return X + 1;
#elif __CUDA_ARCH__ >= 800
  return X + 2;
#else
  return X + 3;
#endif
}

__device__ int namedConstant(int X) {
#if __CUDA_ARCH__ >= CC_VOLTA // AUDIT: statement
  return X + 1;
#elif __CUDA_ARCH__ >= 600
  return X + 2;
#else
  return X + 3;
#endif
}

__global__ void kernel(int *P) {
  P[0] = before(P[1]) + hipFirst(P[2]) + between(P[3]) + after(P[4]) +
         chosenValue(P[5]) + namedConstant(P[6]);
}
