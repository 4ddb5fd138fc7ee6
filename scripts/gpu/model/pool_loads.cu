// pool_loads: why maxpool's loads wait longer than a stream's with the same
// bytes in flight (docs/report.md, "A wave's cost, spmv's lines and gemv's
// runs, measured": one output a thread, 32 KiB an SM, 64% of DRAM's peak
// against a stream's 88%). The same 2,048 planes of 112 x 112 floats, 32 x 8
// threads a block, one output a thread, read six ways that keep a warp's
// new bytes (two input rows of 256 bytes) and the DRAM bytes alike:
//   3x3        maxpool.cu's windows: 9 loads, a row shared with the warp
//              above (from L1 or L2), a column with the lane beside
//   3x2        the shared row alone: 6 loads
//   2x3        the shared column alone: 6 loads
//   2x2        windows of 2 x 2, no overlap: 4 loads, lanes two floats apart
//   2x2.f2     the same as 2 float2 loads: each a warp's 256 consecutive bytes
//   stream     a plain stream: one float4 a thread, 512 consecutive bytes a
//              warp, as many working threads as 2x2's
// Each stores one float a thread. Without arguments each runs
// 20 times after a warm-up and its median is printed; with "once" each runs
// once (for Nsight Compute).
//   nvcc -O3 -arch=sm_90 -std=c++17 pool_loads.cu -o pool_loads
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

// Rows 2y + R0 ... and columns 2x + C0 ... of the window, NR x NC of them:
// maxpool's 3 x 3 starts a row and a column before the output's 2 x 2. The
// guards on a row and a column before the plane's edge are maxpool's too:
// ptxas keeps branches between the rows' loads, each row's maximum waiting
// for its loads before the next row's are issued (even for 2 x 2, whose
// guards never fail: the index is an int the compiler cannot prove
// positive), where 2x2.f2's loads all go out at once.
template <int R0, int NR, int C0, int NC>
__global__ void __launch_bounds__(256)
    window(float *__restrict__ out, const float *__restrict__ in) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= WO || y >= HO)
    return;
  const float *p = in + size_t(blockIdx.z) * H * W;
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < NR; ++i) {
    int r = 2 * y + R0 + i;
    if (r < 0)
      continue;
#pragma unroll
    for (int j = 0; j < NC; ++j) {
      int c = 2 * x + C0 + j;
      if (c >= 0)
        m = fmaxf(m, p[r * W + c]);
    }
  }
  out[size_t(blockIdx.z) * HO * WO + y * WO + x] = m;
}

__global__ void __launch_bounds__(256)
    window2x2f2(float *__restrict__ out, const float *__restrict__ in) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= WO || y >= HO)
    return;
  const float *p = in + size_t(blockIdx.z) * H * W + 2 * y * W + 2 * x;
  float2 a = *reinterpret_cast<const float2 *>(p);
  float2 b = *reinterpret_cast<const float2 *>(p + W);
  out[size_t(blockIdx.z) * HO * WO + y * WO + x] =
      fmaxf(fmaxf(a.x, a.y), fmaxf(b.x, b.y));
}

// One float4 a thread of consecutive memory: the planes' bytes read once,
// 16 bytes a thread as 2x2's, in runs of a warp's 512 bytes.
__global__ void __launch_bounds__(256)
    stream(float *__restrict__ out, const float *__restrict__ in) {
  size_t i = size_t(blockIdx.x) * 256 + threadIdx.x;
  float4 a = reinterpret_cast<const float4 *>(in)[i];
  out[i] = fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w));
}

struct Config {
  const char *name;
  void (*kernel)(float *, const float *);
  dim3 grid;
};

const dim3 PoolGrid((WO + 31) / 32, (HO + 7) / 8, PLANES);
const Config configs[] = {
    {"3x3", window<-1, 3, -1, 3>, PoolGrid},
    {"3x2", window<-1, 3, 0, 2>, PoolGrid},
    {"2x3", window<0, 2, -1, 3>, PoolGrid},
    {"2x2", window<0, 2, 0, 2>, PoolGrid},
    {"2x2.f2", window2x2f2, PoolGrid},
    {"stream", stream, dim3(unsigned(size_t(PLANES) * H * W / (256 * 4)))}};

int main(int argc, char **argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  size_t in_elems = size_t(PLANES) * H * W;
  float *in, *out;
  CHECK(cudaMalloc(&in, in_elems * sizeof(float)));
  CHECK(cudaMalloc(&out, in_elems / 4 * sizeof(float)));
  CHECK(cudaMemset(in, 0, in_elems * sizeof(float)));
  for (const Config &c : configs) {
    dim3 block = c.kernel == stream ? dim3(256) : dim3(32, 8);
    c.kernel<<<c.grid, block>>>(out, in);
    CHECK(cudaDeviceSynchronize());
    if (once)
      continue;
    double us = median_us([&] { c.kernel<<<c.grid, block>>>(out, in); });
    if (us < 0)
      return 1;
    std::printf("%s %.1f us\n", c.name, us);
  }
  return 0;
}
