// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o - | FileCheck %s
// Staging a tile into shared memory with generation-time constants: nvcc
// sees straight-line code, eight loads and no branch at all.
@meta int nt = 128;
@meta int vt = 8;

__global__ void stage(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[nt * vt];
  int base = blockIdx.x * (nt * vt) + threadIdx.x;
  @meta for (int i = 0; i < vt; ++i)
    tile[threadIdx.x + i * nt] = in[base + i * nt];
  __syncthreads();
  float sum = 0.0f;
  @meta for (int i = 0; i < vt; ++i)
    sum += tile[(threadIdx.x * vt + i) % (nt * vt)];
  out[blockIdx.x * nt + threadIdx.x] = sum;
}
// CHECK-LABEL: .entry {{.*}}stage
// CHECK-NOT: bra
// CHECK-COUNT-8: ld.global.nc.f32
// CHECK-NOT: ld.global
// CHECK-NOT: bra
// CHECK: bar.sync
// CHECK-NOT: bra
// CHECK: ret;
