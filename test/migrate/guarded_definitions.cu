// A macro defined per architecture under a guard that tests the macro
// itself (CUTLASS's cute/util/debug.hpp: `#if !defined(CUTE_LOG)` around
// `#if !defined(__CUDA_ARCH__)` / `#define CUTE_LOG ...`). Every pass takes
// the guard's branch, but expand reads a conditional that tests a macro
// defined under a test of the architecture as chosen per architecture and
// refuses a meta construct inside it: the inner conditional stays, so the
// migrated file still expands.
#include <cstdio>

#if !defined(MY_LOG)
#if !defined(__CUDA_ARCH__) // AUDIT: not-convertible
#define MY_LOG(format, ...) printf(format, __VA_ARGS__)
#else
#define MY_LOG(format, ...) printf("[thread %d]: " format, threadIdx.x, __VA_ARGS__)
#endif
#endif

__global__ void kernel(int v) { MY_LOG("%d\n", v); }

__device__ int twice(int v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 // AUDIT: statement
  return __reduce_add_sync(0xffffffffu, v) * 2;
#else
  return v + v;
#endif
}

__global__ void sum(int *out, int v) { *out = twice(v); }
