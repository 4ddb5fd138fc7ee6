// Two kernels that must compile to the same PTX: a template-dependent loop
// through metacu::unroll_for, and the same body written out by hand.
// check_unroll_ptx.sh diffs their bodies with the names masked, and requires
// four loads, no branch and no local memory: the register array only stays
// out of local memory if the body really is stamped out once per constant
// index.
#include <metacu/select.h>

template <int N> __global__ void via_unroll_for(const float *x, float *y) {
  float v[N];
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * N;
  metacu::unroll_for<int, 0, N, 1, metacu::loop_cmp::lt>([&](auto k_) {
    constexpr int k = decltype(k_)::value;
    v[k] = x[base + k] * float(k + 1);
  });
  float acc = 0.0f;
  metacu::unroll_for<int, N - 1, 0, -1, metacu::loop_cmp::ge>([&](auto k_) {
    constexpr int k = decltype(k_)::value;
    acc = acc * 0.5f + v[k];
  });
  y[base / N] = acc;
}

template __global__ void via_unroll_for<4>(const float *, float *);

__global__ void by_hand(const float *x, float *y) {
  float v[4];
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  { v[0] = x[base + 0] * float(0 + 1); }
  { v[1] = x[base + 1] * float(1 + 1); }
  { v[2] = x[base + 2] * float(2 + 1); }
  { v[3] = x[base + 3] * float(3 + 1); }
  float acc = 0.0f;
  { acc = acc * 0.5f + v[3]; }
  { acc = acc * 0.5f + v[2]; }
  { acc = acc * 0.5f + v[1]; }
  { acc = acc * 0.5f + v[0]; }
  y[base / 4] = acc;
}
