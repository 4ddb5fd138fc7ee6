// RUN: rm -rf %t && mkdir -p %t
// RUN: %metacu %s -o %t/k.gen.cu --arch 75,90
// RUN: %metacu report %s --arch 75,90 --format json -o %t/report.json
// RUN: %nvcc -cubin -arch=sm_75 -Xptxas -v %t/k.gen.cu -o %t/k75.cubin 2> %t/sm_75.log
// RUN: %nvcc -cubin -arch=sm_90 -Xptxas -v %t/k.gen.cu -o %t/k90.cubin 2> %t/sm_90.log
// RUN: %python %S/Inputs/compare_ptxas.py %t/report.json %t/sm_75.log %t/sm_90.log | FileCheck %s
// The report's resource figures are what nvcc -cubin -Xptxas -v prints for
// the file metacu generates: a kernel that spills, one with shared memory,
// barriers and a non-inlined call, one in a namespace with launch bounds.
// CHECK: sm_75: 3 kernels compared
// CHECK: sm_90: 3 kernels compared
__constant__ float coef[64];

__device__ __noinline__ float helper(float x) { return x * coef[3] + 1.0f; }

@meta int n = 200;

__global__ void spills(const float* __restrict__ in, float* out) {
  float r[n];
  @meta for (int i = 0; i < n; ++i)
    r[i] = in[threadIdx.x + i * 128];
  float acc = 0;
  for (int i = 0; i < n; ++i)
    acc += r[(i * 13 + int(acc)) % n];
  out[threadIdx.x] = acc;
}

__global__ void staged(float* a, int k) {
  __shared__ float s[256];
  __shared__ double d[32];
  s[threadIdx.x] = a[threadIdx.x];
  d[threadIdx.x % 32] = a[threadIdx.x + 256];
  __syncthreads();
  a[threadIdx.x] = helper(s[(threadIdx.x + k) % 256]) + float(d[k % 32]);
}

namespace ns {
__global__ void __launch_bounds__(128, 4) bounded(float4* v) {
  @meta for (int i = 0; i < 4; ++i)
    v[threadIdx.x + @(i * 128)].x *= 2.0f;
}
} // namespace ns
