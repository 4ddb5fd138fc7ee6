// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
// RUN: python3 %S/Inputs/same_body.py %t.ptx by_template by_generation | FileCheck %s
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// A @meta for counted by the C++ compiler (its bound is a template
// parameter) gives the same PTX as one counted at generation time.
template <int N>
__device__ void accumulate(const float* x, float* y) {
  @meta for (int i = 0; i < N; ++i)
    y[i] += 2.0f * x[i * 32];
}

__global__ void by_template(const float* x, float* y) {
  accumulate<6>(x, y);
}

@meta int n = 6;
__global__ void by_generation(const float* x, float* y) {
  @meta for (int i = 0; i < n; ++i)
    y[i] += 2.0f * x[i * 32];
}
// CHECK: same_body: {{[0-9]+}} identical lines
// PTX-LABEL: .entry {{.*}}by_template
// PTX-NOT: bra
// PTX: ret;
