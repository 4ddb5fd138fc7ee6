// Pragmas chosen per architecture before the loop they apply to (XGBoost's
// linalg.h: '#if defined __CUDA_ARCH__' '#pragma unroll n' '#endif'): each
// branch of the 'if codegen' chain holds the loop after its pragmas, and
// __LINE__ below keeps its value.
template <int N, typename Fn>
__host__ __device__ void unrollLoop(Fn F) {
#if defined __CUDA_ARCH__ // AUDIT: host-device-split
#pragma unroll N
#endif // defined __CUDA_ARCH__
  for (int I = 0; I < N; ++I) {
    F(I);
  }
}

__global__ void kernel(int *Out) {
  int Acc = 0;
  unrollLoop<4>([&](int I) { Acc += Out[I] * I; });
#if __CUDA_ARCH__ >= 800 // AUDIT: statement
#pragma unroll 2
#elif __CUDA_ARCH__ >= 750
#pragma unroll 1
#endif
  for (int I = 0; I < Out[1]; ++I)
    Acc += Out[I + 8];
  Out[0] = Acc + __LINE__;
}

void launch(int *Out) {
  unrollLoop<2>([&](int I) { Out[I] = 0; });
  kernel<<<1, 1>>>(Out);
}
