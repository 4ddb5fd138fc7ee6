// An '#else' that no pass takes, after a branch every pass takes or skips
// to: Clang reports no '#else' it skips after a taken branch, so a pass
// that took the first branch once recorded the '#endif' in its place, and
// the migrated file kept a stray '#else' inside 'if codegen'.
#include <cuda_runtime.h>

#if (!defined(__CUDA_ARCH__) || (__CUDA_ARCH__ >= 800)) // AUDIT: macro-definition
#define BIG_ENABLED
#endif

__device__ int pick(int X) {
#if defined(BIG_ENABLED) // AUDIT: statement
  return X + 2; // PTX: sm_80 has add.s32
#elif defined(__CUDA_ARCH__)
  return X + 1;
#else
  __brkpt();
  return 0;
#endif
}

__global__ void kernel(int *P) { P[0] = pick(P[1]); }
