// RUN: %metacu %s -o %t.gen.cu --arch 75,90
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: FileCheck %s --input-file %t.gen.cu
// RUN: %metacu %s -o %t.off.gen.cu --arch 90 --no-untagged-helpers
// RUN: FileCheck %s --check-prefix=OFF --input-file %t.off.gen.cu
// Functions without execution-space attributes that device code calls,
// directly or through each other, are emitted __host__ __device__, as
// Circle allows; the host still calls them. Others are left alone.
#include <cstdio>
#include <vector>

int square(int x);
// CHECK: __host__ __device__ int square(int x);

template <class T> T cube(T x) { return x * square(x); }
// CHECK: template <class T> __host__ __device__ T cube(T x)

int square(int x) { return x * x; }
// CHECK: __host__ __device__ int square(int x) { return x * x; }

namespace util {
inline float half(float v) { return v * 0.5f; }
// CHECK: __host__ __device__ inline float half(float v)
}

extern "C" bool is_pow2(unsigned x) { return (x & (x - 1)) == 0; }
// CHECK: extern "C" __host__ __device__ bool is_pow2(

int host_total(const std::vector<int>& v) {
  int t = 0;
  for (int x : v) t += square(x);
  return t;
}
// CHECK: {{^}}int host_total(

__global__ void k(int* out, float* f) {
  out[0] = cube(3);
  f[0] = util::half(f[1]);
  out[1] = is_pow2(out[2]);
}

int main() {
  std::vector<int> v{1, 2, 3};
  std::printf("%d %d\n", host_total(v), cube(2));
  return 0;
}
// OFF: {{^}}int square(int x);
// OFF: {{^}}template <class T> T cube(T x)
