// Plain CUDA: half and bfloat16 arithmetic, with the __CUDA_ARCH__ tests
// the toolkit's headers make.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__global__ void axpy_half(int n, __half a, const __half* x, __half* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __hfma(a, x[i], y[i]);
}

__global__ void scale_bf16(int n, float a, __nv_bfloat16* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = __float2bfloat16(a * __bfloat162float(y[i]));
}
