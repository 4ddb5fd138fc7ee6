// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o - | FileCheck %s --check-prefix=PTX90
// Circle's article form of a function template over the architecture and
// a type: its meta code looks the architecture up in a std::map. It
// expands and builds for three architectures, each with its own tuning.
#include <map>
#include <cuda_runtime.h>
#include <metacu/runtime.h>

struct params_t {
  int nt, vt;
};
const std::map<int, params_t> kernel_config{
    {75, {128, 4}}, {80, {256, 8}}, {90, {256, 12}}};

template <nvvm_arch_t sm, typename T>
__device__ void saxpy_sm(T a, const T *x, T *y) {
  @meta auto it = kernel_config.find((int)sm);
  @meta for (int i = 0; i < it->second.vt; ++i)
    y[threadIdx.x + i * @(it->second.nt)] += a * x[threadIdx.x + i * @(it->second.nt)];
}

template <typename T>
__global__ void saxpy(T a, const T *x, T *y) {
  @meta for enum (auto sm : nvvm_arch_t)
    if codegen (__nvvm_arch == sm)
      saxpy_sm<sm>(a, x, y);
}
template __global__ void saxpy<float>(float, const float *, float *);
// sm_90: 12 values of x and 12 of y per thread.
// PTX90-COUNT-24: ld.global
// PTX90-NOT: ld.global
