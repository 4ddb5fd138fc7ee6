// RUN: %check-golden %s -- --arch 80
// A '#pragma unroll' written before a meta loop (ported from the loop it
// was) is dropped: metacu unrolls the loop, and nvcc warns about a pragma
// that precedes no loop (#20058-D). One before an ordinary loop stays.
template <int N>
__device__ int sum(const int* p) {
  int s = 0;
#pragma unroll
  @meta for (int i = 0; i < N; ++i)
    s += p[i];
  return s;
}

__global__ void k(int* out) {
  #pragma unroll 2
  @meta for (int i = 0; i < 2; ++i)
    out[i] = i;
#pragma unroll
  for (int j = 0; j < 4; ++j)
    out[j] += sum<4>(out);
}
