// RUN: %check-golden %s -- --arch 75,80,90
// 'using if codegen' chooses declarations inside a function body that stay
// visible after the chain (a pointer, a constexpr layout, a type alias
// chosen per architecture): its branches' braces open no scope, as
// 'if codegen''s do outside function bodies, and the chain becomes the
// same #if/#elif/#else ladder, so each pass, the host's included, reads
// what it would in hand-written code. Statements may stand beside the
// declarations.
struct layout { int qs, df; };

@meta int scale = 2;

__device__ float load(const int *tile, int i) {
  using if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    constexpr layout l{64, 8};
    using acc_t = float;
    const int *qs = tile + i;
  } else {
    constexpr layout l{32, 4};
    using acc_t = double;
    const int *qs = tile + 2 * i;
    i += 1;
  }
  acc_t acc = qs[l.qs] * scale;
  // One declaration per branch, unbraced; 'scale' below is the local.
  using if codegen (__nvvm_arch >= nvvm_arch_t::sm_90)
    int scale = l.df;
  else
    int scale = l.df + 1;
  return acc * scale + i;
}

__host__ __device__ int where(int x) {
  using if codegen ((int)__nvvm_arch != 0)
    const int bias = 1;
  else
    const int bias = -1;
  return x + bias;
}
