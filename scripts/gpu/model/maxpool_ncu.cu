// Ten of maxpool.cu's configurations alone, for Nsight Compute
// (maxpool-ncu): what sets their times apart where the model predicts them
// all at DRAM's rate (docs/report.md, "Maxpool's bounds tests"). The
// kernel is maxpool.cu's, a template over the block and the outputs a
// thread. Without arguments each runs 20 times after a warm-up and its
// median time is printed; with "once", each runs once (what ncu profiles).
//   nvcc -O3 -arch=sm_90 -std=c++17 maxpool_ncu.cu -o maxpool_ncu
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../check.h"
#include "../median_time.h"

constexpr int PLANES = 32 * 64;
constexpr int H = 112, W = 112;
constexpr int HO = H / 2, WO = W / 2;

template <int bx, int by, int ox, int oy>
__global__ void pool(float* __restrict__ out, const float* __restrict__ in) {
  int x0 = (blockIdx.x * bx + threadIdx.x) * ox;
  int y0 = (blockIdx.y * by + threadIdx.y) * oy;
  if (x0 >= WO || y0 >= HO)
    return;
  const float* p = in + size_t(blockIdx.z) * H * W;
  float m[oy][ox];
#pragma unroll
  for (int a = 0; a < oy; ++a)
#pragma unroll
    for (int b = 0; b < ox; ++b)
      m[a][b] = -INFINITY;
#pragma unroll
  for (int i = 0; i < 2 * oy + 1; ++i) {
    int r = 2 * y0 - 1 + i;
    if (r < 0 || r >= H)
      continue;
#pragma unroll
    for (int j = 0; j < 2 * ox + 1; ++j) {
      int col = 2 * x0 - 1 + j;
      if (col < 0 || col >= W)
        continue;
      float v = p[r * W + col];
#pragma unroll
      for (int a = 0; a < oy; ++a)
#pragma unroll
        for (int b = 0; b < ox; ++b)
          if (i >= 2 * a && i <= 2 * a + 2 && j >= 2 * b && j <= 2 * b + 2)
            m[a][b] = fmaxf(m[a][b], v);
    }
  }
  float* q = out + size_t(blockIdx.z) * HO * WO;
#pragma unroll
  for (int a = 0; a < oy; ++a)
#pragma unroll
    for (int b = 0; b < ox; ++b)
      q[(y0 + a) * WO + x0 + b] = m[a][b];
}

struct Config {
  int bx, by, ox, oy;
  void (*kernel)(float*, const float*);
};

#define C(BX, BY, OX, OY) {BX, BY, OX, OY, pool<BX, BY, OX, OY>}
const Config configs[] = {C(16, 8, 2, 1),  C(32, 8, 2, 1), C(32, 4, 2, 1),
                          C(64, 8, 2, 1),  C(32, 8, 1, 1), C(32, 4, 1, 1),
                          C(64, 8, 1, 1),  C(64, 16, 1, 1), C(8, 16, 1, 1),
                          C(32, 8, 4, 1)};


int main(int argc, char** argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  size_t in_elems = size_t(PLANES) * H * W, out_elems = size_t(PLANES) * HO * WO;
  float *in, *out;
  CHECK(cudaMalloc(&in, in_elems * sizeof(float)));
  CHECK(cudaMalloc(&out, out_elems * sizeof(float)));
  CHECK(cudaMemset(in, 0, in_elems * sizeof(float)));
  for (const Config& c : configs) {
    int tx = c.bx * c.ox, ty = c.by * c.oy;
    dim3 grid((WO + tx - 1) / tx, (HO + ty - 1) / ty, PLANES), block(c.bx, c.by);
    c.kernel<<<grid, block>>>(out, in);
    CHECK(cudaDeviceSynchronize());
    if (once)
      continue;
    double us = median_us([&] { c.kernel<<<grid, block>>>(out, in); });
    if (us < 0)
      return 1;
    std::printf("%d,%d,%d,%d %.1f us\n", c.bx, c.by, c.ox, c.oy, us);
  }
  return 0;
}
