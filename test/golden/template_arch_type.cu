// RUN: %check-golden %s -- --arch 75,80,90
// A function template over the architecture and a type (Circle's article:
// 'template <nvvm_arch_t sm, typename T>'): meta code reading 'sm' looks
// up a std::map as it does with 'sm' alone. C++ cannot specialize a
// function template partially, so the body becomes one 'if constexpr'
// branch per architecture in the one template; meta code reading 'T' is a
// constant expression of the template, as in any template.
#include <map>

struct params_t {
  int nt, vt;
};
const std::map<int, params_t> kernel_config{{75, {128, 2}}, {90, {256, 4}}};

template <nvvm_arch_t sm, typename T>
__device__ T sum_sm(const T *x) {
  @meta auto it = kernel_config.lower_bound((int)sm);
  @meta params_t p = it->second;
  @meta int bytes = sizeof(T) * p.vt;
  T s = 0;
  @meta for (int i = 0; i < p.vt; ++i)
    s += x[threadIdx.x + i * p.nt];
  return s + bytes;
}

template <typename T>
__global__ void sum(const T *x, T *out) {
  @meta for enum (auto sm : nvvm_arch_t)
    if codegen (__nvvm_arch == sm)
      *out = sum_sm<sm, T>(x);
}
template __global__ void sum<float>(const float *, float *);
