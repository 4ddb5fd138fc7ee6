// A macro that spells '#pragma' (CUTLASS's `#define CUTLASS_PRAGMA_UNROLL
// #pragma unroll`, defined for nvcc's device passes) used in a branch chosen
// per architecture. nvcc reads the expansion, alone on its line, as the
// directive; migrate's parse reads it as _Pragma, so the branch parses and
// converts instead of staying as it is.
#include <cuda_fp16.h>

#if defined(__CUDA_ARCH__) // AUDIT: macro-definition
#define PRAGMA_UNROLL #pragma unroll
#define PRAGMA_NO_UNROLL #pragma unroll 1
#else
#define PRAGMA_UNROLL
#define PRAGMA_NO_UNROLL
#endif

template <int N>
__host__ __device__ void halve(__half *x) {
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ >= 800) // AUDIT: local-declaration
  __half2 *x2 = reinterpret_cast<__half2 *>(x);
  PRAGMA_UNROLL
  for (int i = 0; i < N / 2; ++i)
    x2[i] = __hmul2(x2[i], __float2half2_rn(0.5f));
#else
  PRAGMA_NO_UNROLL
  for (int i = 0; i < N; ++i)
    x[i] = __float2half(__half2float(x[i]) * 0.5f);
#endif
}

__global__ void kernel(__half *x, int n) {
  halve<8>(x + 8 * threadIdx.x);
  PRAGMA_NO_UNROLL
  for (int i = 0; i < n; ++i)
    x[i] = __hadd(x[i], x[i]);
}
