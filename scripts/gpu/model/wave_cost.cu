// wave_cost: does a steady wave of short blocks cost more than its bytes?
// maxpool's one-output-a-thread grids (twice the waves of two outputs, the
// same DRAM bytes) reach 57-70% of DRAM's peak against 72-80%
// (docs/report.md, "Bounds tests on the block index and L1's lines,
// tried"). Here the same work is split into R = 1, 2, 4, 8 rounds a thread
// (a loop of R passes, each a whole block's worth of loads and stores), so
// the bytes stay and the waves fall R times: a fixed cost a wave shows as
// time falling with R, a time that stays is the bytes (the answer:
// docs/report.md, "A wave's cost, spmv's lines and gemv's runs, measured").
//   pool  BX BY OX OY R: maxpool.cu's kernel, R planes a block in turn
//   stream T K R: T threads a block, K coalesced floats a thread a round
//                 summed and one float stored (maxpool's 5:1 of reads to
//                 writes is near K = 4), 256 MiB read
// Without arguments every configuration runs 20 times after a warm-up and
// its median is printed; with "once" each runs once (for Nsight Compute).
//   nvcc -O3 -arch=sm_90 -std=c++17 wave_cost.cu -o wave_cost
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

template <int bx, int by, int ox, int oy, int R>
__global__ void pool(float *__restrict__ out, const float *__restrict__ in) {
  int x0 = (blockIdx.x * bx + threadIdx.x) * ox;
  int y0 = (blockIdx.y * by + threadIdx.y) * oy;
  if (x0 >= WO || y0 >= HO)
    return;
#pragma unroll 1
  for (int k = 0; k < R; ++k) {
    size_t plane = size_t(blockIdx.z) * R + k;
    const float *p = in + plane * H * W;
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
    float *q = out + plane * HO * WO;
#pragma unroll
    for (int a = 0; a < oy; ++a)
#pragma unroll
      for (int b = 0; b < ox; ++b)
        q[(y0 + a) * WO + x0 + b] = m[a][b];
  }
}

constexpr size_t STREAM = size_t(1) << 26; // floats read: 256 MiB, five L2s

template <int T, int K, int R>
__global__ void __launch_bounds__(T)
    stream(float *__restrict__ out, const float *__restrict__ in) {
#pragma unroll 1
  for (int k = 0; k < R; ++k) {
    size_t tile = size_t(blockIdx.x) * R + k;
    const float *p = in + tile * T * K + threadIdx.x;
    float v[K];
#pragma unroll
    for (int i = 0; i < K; ++i)
      v[i] = p[i * T];
    float s = 0;
#pragma unroll
    for (int i = 0; i < K; ++i)
      s += v[i];
    out[tile * T + threadIdx.x] = s;
  }
}

struct Config {
  const char *kind;
  int a, b, c, d, r; // pool: bx by ox oy R; stream: T K - - R
  void (*kernel)(float *, const float *);
  dim3 grid, block;
};

#define P(BX, BY, OX, OY, R)                                                   \
  Config {                                                                     \
    "pool", BX, BY, OX, OY, R, pool<BX, BY, OX, OY, R>,                        \
        dim3((WO + BX * OX - 1) / (BX * OX), (HO + BY * OY - 1) / (BY * OY),   \
             PLANES / R),                                                      \
        dim3(BX, BY)                                                           \
  }
#define P4(BX, BY, OX, OY)                                                     \
  P(BX, BY, OX, OY, 1), P(BX, BY, OX, OY, 2), P(BX, BY, OX, OY, 4),            \
      P(BX, BY, OX, OY, 8)
#define S(T, K, R)                                                             \
  Config {                                                                     \
    "stream", T, K, 0, 0, R, stream<T, K, R>,                                  \
        dim3(unsigned(STREAM / (T * K * R))), dim3(T)                          \
  }
#define S4(T, K) S(T, K, 1), S(T, K, 2), S(T, K, 4), S(T, K, 8)
#define S3(T) S4(T, 2), S4(T, 4), S4(T, 8)

const Config configs[] = {P4(32, 8, 1, 1),  P4(32, 8, 2, 1), P4(64, 8, 1, 1),
                          P4(64, 16, 1, 1), P4(32, 4, 1, 1), P4(16, 8, 2, 1),
                          S3(128),          S3(256),         S3(512),
                          S3(1024)};

int main(int argc, char **argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  size_t in_elems = std::max(size_t(PLANES) * H * W, STREAM);
  size_t out_elems = std::max(size_t(PLANES) * HO * WO, STREAM);
  float *in, *out;
  CHECK(cudaMalloc(&in, in_elems * sizeof(float)));
  CHECK(cudaMalloc(&out, out_elems * sizeof(float)));
  CHECK(cudaMemset(in, 0, in_elems * sizeof(float)));
  int sms = 0, clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  if (!once)
    std::printf("kind a b c d R blocks/SM waves time_us cycles_per_wave\n");
  for (const Config &c : configs) {
    c.kernel<<<c.grid, c.block>>>(out, in);
    CHECK(cudaDeviceSynchronize());
    if (once)
      continue;
    int resident = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &resident, c.kernel, c.block.x * c.block.y, 0));
    double us = median_us([&] { c.kernel<<<c.grid, c.block>>>(out, in); });
    if (us < 0)
      return 1;
    double waves =
        double(c.grid.x) * c.grid.y * c.grid.z / (double(resident) * sms);
    std::printf("%s %d %d %d %d %d %d %.2f %.2f %.0f\n", c.kind, c.a, c.b, c.c,
                c.d, c.r, resident, waves, us, us * clock_khz / 1e3 / waves);
  }
  return 0;
}
