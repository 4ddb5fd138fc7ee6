// What orders the transpose's padded tiles and the 3D stencil's chunks on a
// GPU (docs/report.md, "Kernels the model was not built around"): the
// transpose of scripts/gpu/model/transpose.cu against kernels with its
// address pattern and no shared memory (the rows of tile x 4 bytes each
// block writes, or reads, apart), and the 3D stencil of
// scripts/gpu/model/stencil3d.cu marching all blocks in step against the
// same blocks starting their march at staggered planes. Prints the median
// of 21 timed launches (cudaEvent) per kernel.
//   nvcc -O3 -arch=sm_90 -std=c++17 model_locality.cu -o model_locality
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

constexpr int N = 8192;

// Mode 0: the transpose through a padded shared tile. 1: the same addresses
// on both sides, no shared memory (each element goes where the transpose
// puts its tile, rows of tile x 4 bytes written apart). 2: a tiled copy
// (both sides rows of the same block). 3: reads apart, writes together.
template <int T, int R, int Mode>
__global__ void tile_move(float *__restrict__ out,
                          const float *__restrict__ in) {
  __shared__ float t[T][T + 1];
  int bx = blockIdx.x, by = blockIdx.y;
  if (Mode == 0) {
    int x = bx * T + threadIdx.x, y = by * T + threadIdx.y;
    for (int j = 0; j < T; j += R)
      t[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * N + x];
    __syncthreads();
    x = by * T + threadIdx.x;
    y = bx * T + threadIdx.y;
    for (int j = 0; j < T; j += R)
      out[size_t(y + j) * N + x] = t[threadIdx.x][threadIdx.y + j];
  } else {
    for (int j = 0; j < T; j += R) {
      size_t a = size_t(by * T + threadIdx.y + j) * N + bx * T + threadIdx.x;
      size_t b = size_t(bx * T + threadIdx.y + j) * N + by * T + threadIdx.x;
      if (Mode == 1)
        out[b] = in[a];
      else if (Mode == 2)
        out[a] = in[a];
      else
        out[a] = in[b];
    }
  }
}

constexpr int NX = 512, NY = 512, NZ = 256, PX = NX + 2, PY = NY + 2;

// Stagger 0: scripts/gpu/model/stencil3d.cu's kernel. 1: each block starts
// its chunk at a plane of its own (rotated by its index) and wraps around,
// the same planes and bytes, out of step with the other blocks.
template <int BX, int BY, int Z, int Stagger>
__global__ void stencil3d(float *__restrict__ out,
                          const float *__restrict__ in) {
  const int x = blockIdx.x * BX + threadIdx.x,
            y = blockIdx.y * BY + threadIdx.y;
  const int z0 = blockIdx.z * Z;
  int s = Stagger ? ((blockIdx.x + blockIdx.y * gridDim.x) * 37) % Z : 0;
  for (int seg = 0; seg < (Stagger ? 2 : 1); ++seg) {
    int from = seg == 0 ? s : 0, to = seg == 0 ? Z : s;
    if (!Stagger)
      from = 0, to = Z;
    const float *p = in + (size_t(z0 + from + 1) * PY + y + 1) * PX + x + 1;
    float *q = out + (size_t(z0 + from) * NY + y) * NX + x;
    float below = p[-PX * PY], centre = p[0];
    for (int z = from; z < to; ++z) {
      float above = p[PX * PY];
      *q = 0.5f * centre +
           (1.0f / 12) * (below + above + p[-1] + p[1] + p[-PX] + p[PX]);
      below = centre;
      centre = above;
      p += PX * PY;
      q += NX * NY;
    }
  }
}

// The median of 21 timed launches of \p k, in microseconds, into \p us;
// 1 where a CUDA call failed (CHECK, check.h).
static int timeKernel(void (*k)(float *, const float *), dim3 g, dim3 b,
                      float *o, const float *i, float &us) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  std::vector<float> ms;
  for (int r = 0; r < 24; ++r) {
    CHECK(cudaEventRecord(e0));
    k<<<g, b>>>(o, i);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float t;
    CHECK(cudaEventElapsedTime(&t, e0, e1));
    if (r >= 3)
      ms.push_back(t * 1000);
  }
  std::sort(ms.begin(), ms.end());
  us = ms[ms.size() / 2];
  return 0;
}

template <int T, int R, int Mode>
static int tile(float *o, const float *i, bool only) {
  if (only) {
    tile_move<T, R, Mode><<<dim3(N / T, N / T), dim3(T, R)>>>(o, i);
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  float us;
  if (timeKernel(tile_move<T, R, Mode>, dim3(N / T, N / T), dim3(T, R), o, i,
                 us))
    return 1;
  std::printf("tile_move mode=%d tile=%d rows=%d  %.1f us  %.0f GB/s\n", Mode,
              T, R, us, 2.0 * N * N * 4 / us / 1e3);
  return 0;
}

template <int BX, int BY, int Z, int S>
static int sten(float *o, const float *i, bool only) {
  dim3 g(NX / BX, NY / BY, NZ / Z), b(BX, BY);
  if (only) {
    stencil3d<BX, BY, Z, S><<<g, b>>>(o, i);
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  float us;
  if (timeKernel(stencil3d<BX, BY, Z, S>, g, b, o, i, us))
    return 1;
  std::printf("stencil3d %dx%d z=%d stagger=%d  %.1f us\n", BX, BY, Z, S, us);
  return 0;
}

int main(int argc, char **argv) {
  // With an argument: one launch of each kernel, for Nsight Compute.
  bool only = argc > 1;
  float *a, *b;
  // Large enough for the stencil's input with its ghost layer too.
  const size_t bytes = std::max(size_t(N) * N, size_t(PX) * PY * (NZ + 2)) * 4;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 0, bytes));
  CHECK(cudaMemset(b, 0, bytes));
  // Elements a thread: 4 and 8, each mode. Each returns 1 where a CUDA
  // call failed.
#define TILES(M)                                                               \
  tile<16, 4, M>(b, a, only) || tile<32, 8, M>(b, a, only) ||                  \
      tile<64, 16, M>(b, a, only) || tile<16, 2, M>(b, a, only) ||             \
      tile<32, 4, M>(b, a, only) || tile<64, 8, M>(b, a, only)
  if (TILES(0) || TILES(1) || TILES(2) || TILES(3) ||
      // The model's largest errors among the transpose's: one or two
      // elements a thread.
      tile<16, 16, 0>(b, a, only) || tile<32, 32, 0>(b, a, only) ||
      tile<16, 8, 0>(b, a, only) || tile<32, 16, 0>(b, a, only) ||
      sten<64, 16, 16, 0>(b, a, only) || sten<64, 16, 256, 0>(b, a, only) ||
      sten<64, 16, 256, 1>(b, a, only) || sten<32, 8, 16, 0>(b, a, only) ||
      sten<32, 8, 256, 0>(b, a, only) || sten<32, 8, 256, 1>(b, a, only) ||
      sten<64, 1, 256, 0>(b, a, only) || sten<64, 1, 256, 1>(b, a, only) ||
      sten<128, 8, 64, 0>(b, a, only) || sten<128, 8, 64, 1>(b, a, only))
    return 1;
  return 0;
}
