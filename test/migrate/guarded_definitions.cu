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

// A conditional that tests first a macro of a later architecture (defined
// under a test of the architecture that no pass here takes, as CUTLASS's
// CUTLASS_ARCH_CREDUX_ENABLED for sm_100a) would keep that directive, the
// other builds' choice, around the 'if codegen' chain: expand reads the
// conditional as chosen per architecture from its first directive on, so
// it stays.
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM100_ALL) // AUDIT: constant
#define MMA_SM100A_ENABLED
#endif
// Defined under a test of a macro defined under a test of the architecture
// (CUTLASS's CUTLASS_ARCH_CREDUX_ENABLED): expand reads it as chosen per
// architecture too.
#if defined(MMA_SM100A_ENABLED)
#define REDUX_ABS_MAX_ENABLED
#endif

__device__ float abs_max(float v) {
#if defined(REDUX_ABS_MAX_ENABLED) // AUDIT: not-convertible
  float r;
  asm volatile("redux.sync.max.abs.NaN.f32 %0, %1, 0xffffffff;\n" : "=f"(r) : "f"(v));
  return r;
#elif defined(__CUDA_ARCH__)
  return fmaxf(fabsf(v), fabsf(__shfl_down_sync(0xffffffffu, v, 16)));
#else
  return 0.0f;
#endif
}

// Kept after the architecture's branches, the same directive stands inside
// the chain's last 'else', around plain code: it converts.
__device__ float abs_max_after(float v) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 // AUDIT: statement
  return fmaxf(fabsf(v), fabsf(__shfl_xor_sync(0xffffffffu, v, 1)));
#elif defined(REDUX_ABS_MAX_ENABLED)
  return v;
#else
  return fabsf(v);
#endif
}

// A conditional that tests a macro defined per architecture is a site of
// its own and becomes 'if codegen': one inside it converts too.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 750 // AUDIT: macro-definition
#define HAS_TURING_MMA
#endif

__device__ int scaled(int v) {
#if defined(HAS_TURING_MMA) // AUDIT: statement
#if __CUDA_ARCH__ >= 800 // AUDIT: statement
  return v * 3;
#else
  return v * 2;
#endif
#else
  return v;
#endif
}

__global__ void reduce(float *out, int *n, float v) {
  out[0] = abs_max(v);
  out[1] = abs_max_after(v);
  *n = scaled(*n);
}
