// RUN: %check-golden %s -- --arch 80
// A @meta for whose bounds are template parameters cannot be counted at
// generation time; it becomes a fold over an index sequence, still unrolled
// by the C++ compiler with the index a constant expression.
template <int NT, int VT>
__device__ void load(const float* x, float (&r)[VT], int base) {
  @meta for (int i = 0; i < VT; ++i) {
    r[i] = x[base + i * NT];
  }
}

template <int N>
__device__ float tail_sum(const float (&r)[N]) {
  float s = 0.0f;
  @meta for (int i = N - 1; i >= 0; i -= 2)
    s += r[i];
  return s;
}

__global__ void kernel(const float* x, float* y) {
  float r[4];
  load<128, 4>(x, r, threadIdx.x);
  y[threadIdx.x] = tail_sum(r);
}
