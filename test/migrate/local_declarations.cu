// Declarations of a function body chosen per architecture and used after
// the #endif (a pointer, a constexpr layout, a type) become 'using if
// codegen', whose braces open no scope; so does a local used only in its
// branch, which the original declared in the enclosing scope (a block
// around it can change nvcc's code).
#include <cuda_runtime.h>

struct Layout {
  int Qs, Df;
};

__device__ float loadTile(const int *Tile, int I) {
#if __CUDA_ARCH__ >= 800 // AUDIT: local-declaration
  constexpr Layout L{64, 8};
  const float *Df = (const float *)(Tile + L.Qs);
#else
  constexpr Layout L{32, 4};
  const float *Df = (const float *)(Tile + 2 * L.Qs);
#endif // __CUDA_ARCH__ >= 800
  return Df[I % L.Df];
}

// A type chosen per architecture, and the whole body under the #if.
template <int N> __device__ int dot(const int *X, const int *Y) {
#if __CUDA_ARCH__ >= 900 // AUDIT: local-declaration
  typedef long long acc_t;
  acc_t S = 0;
  for (int K = 0; K < N; ++K)
    S += (acc_t)X[K] * Y[K];
  return (int)(S >> 1);
#else
  int S = 0;
  for (int K = 0; K < N; ++K)
    S += X[K] * Y[K];
  return S;
#endif
}

__device__ int sum(const int *X) {
  int R = 0;
#if __CUDA_ARCH__ >= 800 // AUDIT: local-declaration
  int T = X[1]; // used in its branch only
  R += T;
#endif
  return R + X[0];
}

__global__ void kernel(const int *Tile, float *Out) {
  Out[threadIdx.x] = loadTile(Tile, threadIdx.x) + dot<4>(Tile, Tile + 4) +
                     sum(Tile);
}
