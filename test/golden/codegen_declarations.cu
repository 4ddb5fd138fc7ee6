// RUN: %check-golden %s -- --arch 75,80,90
// 'if codegen' outside function bodies chooses declarations (namespace
// scope), members (class scope) and entries of a braced list (an
// initializer, an enumerator list). Its branches' braces open no scope, as
// a meta loop's do not there: what a branch declares is declared after the
// chain, and every chain becomes the same #if/#elif/#else ladder as in a
// function body, so nvcc's host pass reads what it would in hand-written
// code (here the host pass takes the last branch).
template <int N> struct traits;

if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
  __device__ int scale(int x) { return x * 3; }
  template <> struct traits<1> { static constexpr int stages = 4; };
  using acc_t = float;
} else if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
  __device__ int scale(int x) { return x * 2; }
  template <> struct traits<1> { static constexpr int stages = 3; };
  using acc_t = double;
} else {
  template <> struct traits<1> { static constexpr int stages = 2; };
  using acc_t = int;
}

// A kernel defined from sm_80 on only; the host pass sees no kernel.
if codegen (__nvvm_arch >= nvvm_arch_t::sm_80)
  __global__ void ampere_only(int *out) { out[0] = scale(out[1]); }

namespace detail {
if codegen (__nvvm_arch == nvvm_arch_t{})
  constexpr int where = 0;
else
  constexpr int where = 1;
}

struct loader {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    __device__ int load(const int *p) const { return __ldg(p) * 2; }
  } else {
    __device__ int load(const int *p) const { return *p; }
  }
  int pad;
};

__constant__ int table[] = {
  1,
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) { 9, } else { 0, }
  3,
};

enum kind {
  kind_a,
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) { kind_hopper, }
  kind_last
};

__global__ void k(int *out) {
  acc_t a = traits<1>::stages;
  out[0] = loader{}.load(out) + (int)a + table[1] + kind_last + detail::where;
}
