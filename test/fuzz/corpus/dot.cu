// RUN: %check-golden %s -- --arch 75,90
// The worked example of DESIGN.md: one unroll factor per architecture,
// from a table that host code can read too.
#include <map>
#include <cuda_runtime.h>
#include <metacu/runtime.h>

const std::map<int, int> unroll_for_arch { {75, 2}, {90, 4} };

__global__ void dot(const float* x, const float* y, float* out, int n) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta int u = metacu::select(unroll_for_arch, (int)arch);
      float acc = 0.0f;
      int i = (blockIdx.x * blockDim.x + threadIdx.x) * u;
      @meta for (int k = 0; k < u; ++k)
        acc += x[i + k] * y[i + k];
      atomicAdd(out, acc);
    }
  }
}
