// RUN: %check-golden %s -- --arch 75,80,90
// An ordinary static_assert on meta values with no spelling (an iterator
// into a std::map, a container's size beside it) is meta code: checked at
// generation time, once per iteration of the meta loop, and gone from the
// output. One that also names ordinary code (a local) stays for nvcc with
// the meta values spelled.
#include <map>
#include <vector>

struct tuning {
  int nt, vt;
};
const std::map<int, tuning> config{{75, {128, 4}}, {80, {256, 8}}};

@meta std::vector<int> widths{1, 2, 4};
static_assert(widths.size() == 3 && widths.back() == 4, "three widths");

template <int nt, int vt> __device__ void copy(const float *x, float *y) {
  @meta for (int i = 0; i < vt; ++i)
    y[threadIdx.x + i * nt] = x[threadIdx.x + i * nt];
}

__global__ void k(const float *x, float *y) {
  @meta for enum (auto sm : nvvm_arch_t) {
    if codegen (__nvvm_arch == sm) {
      @meta auto it = config.lower_bound((int)sm);
      static_assert(it != config.end() || (int)sm >= 90,
                    "no tuning for this architecture");
      @meta tuning t = it == config.end() ? tuning{64, 1} : it->second;
      constexpr int lanes = 32;
      static_assert(t.nt % lanes == 0, "whole warps");
      copy<t.nt, t.vt>(x, y);
    }
  }
}
