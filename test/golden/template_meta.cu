// RUN: %check-golden %s -- --arch 75,90
// Meta code inside templates that reads the template's parameters is
// lowered to constant expressions of the template: a declaration becomes
// 'constexpr' (a static constexpr member in a class), a '@meta if' becomes
// 'if constexpr', a counted '@meta for' a fold the compiler unrolls per
// instantiation; an inner loop may count to the outer loop's index. A
// template over an enumeration (nvvm_arch_t) whose meta code reads the
// parameter is expanded once per enumerator as explicit specializations,
// so its meta code may read a 'const std::map' keyed by the parameter.
#include <map>

@meta int scale = 3;

struct shape_t { int rows; int cols; };
const std::map<int, shape_t> shapes { {75, {2, 16}}, {90, {4, 32}} };

template <nvvm_arch_t sm> __device__ int cells() {
  @meta shape_t s = shapes.lower_bound((int)sm)->second;
  @meta static_assert(s.cols % 16 == 0, "whole half-warps");
  return s.rows * s.cols;
}

template <int N> __device__ int half_scaled() {
  @meta int h = N / 2 * scale;
  return h;
}

template <int N> __device__ void triangle(int* x) {
  @meta for (int i = 0; i < N; ++i) {
    @meta int row = i * N;
    @meta for (int j = 0; j <= i; ++j) {
      @meta if (j % 2 == 0) {
        x[row + j] += j;
      } else {
        x[row + j] -= i;
      }
    }
  }
}

template <class T, int N> struct tile {
  @meta int bytes = N * sizeof(T);
  T data[N];
};

template <nvvm_arch_t sm> __device__ int lanes() {
  @meta int n = (int)sm >= 90 ? 64 : 32;
  @meta static_assert(n % 32 == 0, "whole warps");
  return n;
}

__global__ void k(int* out) {
  out[0] = half_scaled<8>();
  triangle<3>(out + 1);
  out[10] = tile<float, 4>::bytes;
  @meta for enum (auto sm : nvvm_arch_t)
    if codegen (__nvvm_arch == sm) {
      out[11] = lanes<sm>();
      out[12] = cells<sm>();
    }
}
