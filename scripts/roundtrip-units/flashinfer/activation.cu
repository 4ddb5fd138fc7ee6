// Instantiates flashinfer's gated activation kernel for half.
#include <cuda_fp16.h>
#include <flashinfer/activation.cuh>

__device__ __forceinline__ float silu(const float &x) {
  return x / (1.0f + __expf(-x));
}

void run_silu_and_mul(half *out, const half *in, int d, int tokens) {
  flashinfer::activation::act_and_mul_kernel<half, silu, 8>
      <<<tokens, 256>>>(out, in, d);
}
