// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o - | FileCheck %s --check-prefix=PTX80
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o - | FileCheck %s --check-prefix=PTX90
// Circle's article forms that go through macros: SM_DISPATCH (a macro
// whose body is the '@meta for enum' / 'if codegen' dispatch) and sm_tags
// (an overload per architecture tag, the tag spelled by a macro over the
// meta loop's variable). Both expand and build for three architectures,
// each image with its own tuning.
#include <map>
#include <cuda_runtime.h>
#include <metacu/runtime.h>

struct params_t {
  int nt, vt;
};
const std::map<int, params_t> kernel_config{
    {75, {128, 4}}, {80, {256, 8}}, {90, {256, 12}}};

template <int nt, int vt>
__device__ void saxpy_thread(float a, const float *x, float *y) {
  @meta for (int i = 0; i < vt; ++i)
    y[threadIdx.x + i * nt] += a * x[threadIdx.x + i * nt];
}

#define SM_DISPATCH(F, ...)                                                    \
  @meta for enum (auto sm : nvvm_arch_t)                                       \
    if codegen (__nvvm_arch == sm) {                                           \
      @meta params_t p = metacu::select(kernel_config, (int)sm);               \
      F<p.nt, p.vt>(__VA_ARGS__);                                              \
    }

__global__ void saxpy(float a, const float *x, float *y) {
  SM_DISPATCH(saxpy_thread, a, x, y);
}

__device__ int width(metacu::sm_t<75>) { return 4; }
__device__ int width(metacu::sm_t<80>) { return 8; }
__device__ int width(metacu::sm_t<90>) { return 16; }
#define SM_TAG(sm) metacu::sm_t<(int)sm>{}

__global__ void widths(int *out) {
  @meta for enum (auto sm : nvvm_arch_t)
    if codegen (__nvvm_arch == sm)
      *out = width(SM_TAG(sm));
}
// sm_80: 8 values of x and 8 of y per thread; sm_90: 12 of each.
// PTX80-COUNT-16: ld.global
// PTX80-NOT: ld.global
// PTX90-COUNT-24: ld.global
// PTX90-NOT: ld.global
