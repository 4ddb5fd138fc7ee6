// RUN: %check-golden %s -- --arch 80
// Reflection over enumerations: ordinary ones (emitted for the program) and
// meta-only ones, which exist only at generation time.
#include <string>

enum class op_t { add, mul, max };

@meta enum class stage_t { load, compute, store };

template <op_t Op> __device__ float apply(float a, float b);

@meta for enum (auto op : op_t) {
template <> __device__ float apply<@(op)>(float a, float b) {
  @meta if (op == op_t::add) {
    return a + b;
  } else if (op == op_t::mul) {
    return a * b;
  } else {
    return a > b ? a : b;
  }
}
}

__global__ void k(float* v) {
  @meta for enum (auto s : stage_t) {
    v[@((int)s)] = apply<op_t::@(metacu::enum_name(op_t::mul))>(v[0], v[1]);
  }
}
