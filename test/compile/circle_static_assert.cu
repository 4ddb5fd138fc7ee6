// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o - | FileCheck %s --check-prefix=PTX80
// Circle's article kernel as written there (the map's keys moved to
// architectures nvcc 13 has): an untagged helper template, a meta
// lower_bound into the std::map the host also reads, and an ordinary
// static_assert on the meta iterator, checked at generation time.
#include <map>
#include <cstdio>
#include <cuda_runtime.h>

struct details_t {
  int nt;
  int vt;
};

const std::map<int, details_t> kernel_config {
  { 75, { 256, 3  } },
  { 80, { 128, 7  } },
  { 86, { 128, 11 } },
  { 90, { 256, 8  } }
};

template<int nt, int vt, typename type_t>
void saxpy(type_t a, const type_t* x, type_t* y, size_t index, size_t count) {
  type_t x2[vt], y2[vt];
  @meta for(int i = 0; i < vt; ++i) {
    if(index + i * nt < count) {
      x2[i] = x[index + i * nt];
      y2[i] = y[index + i * nt];
    }
  }
  @meta for(int i = 0; i < vt; ++i)
    y2[i] += a * x2[i];
  @meta for(int i = 0; i < vt; ++i) {
    if(index + i * nt < count)
      y[index + i * nt] = y2[i];
  }
}

template<typename type_t>
__global__ void kernel(type_t a, const type_t* x, type_t* y, size_t count) {
  @meta for enum(auto sm : nvvm_arch_t) {
    if codegen(__nvvm_arch == sm) {
      @meta auto it = kernel_config.lower_bound((int)sm);
      static_assert(it != kernel_config.end(),
        "requested SM version has no kernel details!");
      @meta details_t details = it->second;
      size_t index = blockIdx.x * details.nt * details.vt + threadIdx.x;
      saxpy<details.nt, details.vt>(a, x, y, index, count);
    }
  }
}

int main(int argc, char** argv) {
  size_t count = 1000000;
  int major, minor;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0);
  int sm = 10 * major + minor;
  auto it = kernel_config.lower_bound(sm);
  if(it == kernel_config.end()) {
    fprintf(stderr, "requested SM version has no kernel details!");
    return 1;
  }
  details_t details = it->second;
  int nv = details.nt * details.vt;
  int num_blocks = (count + nv - 1) / nv;
  float* x, *y;
  cudaMalloc((void**)&x, sizeof(float) * count);
  cudaMalloc((void**)&y, sizeof(float) * count);
  kernel<<<num_blocks, details.nt>>>(3.14f, x, y, count);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
// sm_80: 7 values of x and 7 of y per thread.
// PTX80-COUNT-14: ld.global
// PTX80-NOT: ld.global
