// Sites 'if codegen' cannot express: they stay preprocessor conditionals.
#include <cuda_runtime.h>

#if __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
#include <cuda_pipeline.h>
#endif

#if __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
constexpr int TileSize = 128;
#else
constexpr int TileSize = 64;
#endif

struct Config {
#if __CUDA_ARCH__ >= 900 // AUDIT: not-convertible
  int Stages = 4;
#else
  int Stages = 2;
#endif
};

template <int N> __device__ int twice() { return 2 * N; }

__global__ void declKernel(int *Out) {
#if __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
  constexpr int Unroll = 8;
#else
  constexpr int Unroll = 4;
#endif
  Out[0] = twice<Unroll>() + TileSize + Config{}.Stages;
  Out[1] = 1 +
#if __CUDA_ARCH__ >= 900 // AUDIT: not-convertible
           2
#else
           3
#endif
      ;
}
