// Calls a helper of a dialect header from ordinary code
// (test/lsp/test_lsp.py).
#include "kernels.cuh"

@meta int stride = 4;

__global__ void total(const float* in, float* out) {
  out[threadIdx.x] = sum_lanes(in + stride * threadIdx.x);
}
