// Macros defined per architecture (feature flags, a function-like macro
// with a body per pass) become 'if codegen' at namespace scope with the
// #define lines inside: each branch becomes an #if of the passes that take
// it, so each pass defines what it defined before, and the tests of the
// flags convert on their own.
#include <cassert>
#include <cuda_runtime.h>

#if (__CUDACC_VER_MAJOR__ >= 11)
#if (!defined(__CUDA_ARCH__) || (__CUDA_ARCH__ >= 800)) // AUDIT: macro-definition
#define CP_ASYNC_ENABLED
#endif
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // AUDIT: macro-definition
#define CLUSTER_ENABLED 1
#endif

#if defined(__CUDA_ARCH__) // AUDIT: macro-definition
#define RUNTIME_ASSERT(x) __brkpt()
#else
#define RUNTIME_ASSERT(x) assert(0 && x)
#endif

__device__ void copy16(uint4 *Smem, const uint4 *Gmem) {
#ifdef CP_ASYNC_ENABLED // AUDIT: local-declaration
  unsigned S = static_cast<unsigned>(__cvta_generic_to_shared(Smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(S),
               "l"(Gmem)); // PTX: sm_80 has cp.async.cg
  asm volatile("cp.async.wait_all;\n" ::);
  // PTX: sm_75 lacks cp.async
#else
  *Smem = *Gmem;
#endif
}

__global__ void kernel(uint4 *Out, const uint4 *In) {
  __shared__ uint4 Tile[64];
  copy16(Tile + threadIdx.x, In + threadIdx.x);
  __syncthreads();
#if CLUSTER_ENABLED // AUDIT: statement
  Out[threadIdx.x].x = Tile[threadIdx.x].x + 1; // PTX: sm_90 has add.s32
#else
  if (Tile[threadIdx.x].x == 0)
    RUNTIME_ASSERT("zero"); // PTX: sm_75 has brkpt
  Out[threadIdx.x] = Tile[threadIdx.x];
#endif
}
