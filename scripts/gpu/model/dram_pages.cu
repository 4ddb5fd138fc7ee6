// dram_pages: what DRAM gives a read stream against the number of rows its
// bytes in flight are spread over (gemv's order follows the bytes a row
// gets together in a pass and falls with the rows a thread walks at once:
// docs/report.md, "Two more held-out kernels"; measured in "A wave's cost,
// spmv's lines and gemv's runs, measured"). A matrix of 16 rows a warp
// of 4,096 floats (16 KiB a row, as gemv's; 2.2 GB on 132 SMs) is read once
// by exactly one wave (8 blocks of 256 threads on each SM, every warp
// resident the whole run, each with the same rows to read): each warp
// takes S rows at once (S = 1 to 16), grid-stride over the rows, and walks
// them with V floats a lane a load, so a pass keeps S x 128 V bytes of a warp
// in flight in runs of 128 V bytes, one a row. The same bytes in flight (S V)
// over more rows show what the rows cost; no waves, no tail.
//   nvcc -O3 -arch=sm_90 -std=c++17 dram_pages.cu -o dram_pages && ./dram_pages
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "../check.h"
#include "../median_time.h"

constexpr int COLS = 4096, THREADS = 256, ROWS_A_WARP = 16;

template <int V> struct Vec;
template <> struct Vec<1> { using T = float; };
template <> struct Vec<2> { using T = float2; };
template <> struct Vec<4> { using T = float4; };

__device__ float sum(float v) { return v; }
__device__ float sum(float2 v) { return v.x + v.y; }
__device__ float sum(float4 v) { return v.x + v.y + v.z + v.w; }

template <int S, int V>
__global__ void __launch_bounds__(THREADS)
    rows(const float *__restrict__ a, float *y, int n) {
  using T = typename Vec<V>::T;
  int lane = threadIdx.x % 32;
  int warp = (blockIdx.x * THREADS + threadIdx.x) / 32;
  int warps = gridDim.x * THREADS / 32;
#pragma unroll 1
  for (int r0 = warp * S; r0 < n; r0 += warps * S) {
    float s[S] = {};
#pragma unroll 1
    for (int c = lane * V; c < COLS; c += 32 * V) {
      T v[S];
#pragma unroll
      for (int k = 0; k < S; ++k)
        v[k] = *reinterpret_cast<const T *>(a + size_t(r0 + k) * COLS + c);
#pragma unroll
      for (int k = 0; k < S; ++k)
        s[k] += sum(v[k]);
    }
    float t = 0;
#pragma unroll
    for (int k = 0; k < S; ++k)
      t += s[k];
    if (t == -1.0f) // never: the loads stay, no store counts
      y[r0] = t;
  }
}

struct Config {
  int s, v;
  void (*kernel)(const float *, float *, int);
};

#define C3(S)                                                                  \
  {S, 1, rows<S, 1>}, {S, 2, rows<S, 2>}, { S, 4, rows<S, 4> }
const Config configs[] = {C3(1), C3(2), C3(4), C3(8), C3(16)};

int main() {
  int sms = 0, clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  int n = sms * 8 * THREADS / 32 * ROWS_A_WARP;
  float *a, *y;
  CHECK(cudaMalloc(&a, size_t(n) * COLS * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, size_t(n) * COLS * sizeof(float)));
  std::printf("rows_at_once floats_a_lane bytes_in_flight_per_SM run_bytes "
              "blocks/SM time_us GB/s\n");
  for (const Config &c : configs) {
    int resident = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, c.kernel,
                                                        THREADS, 0));
    int grid = std::min(resident, 8) * sms;
    c.kernel<<<grid, THREADS>>>(a, y, n);
    CHECK(cudaDeviceSynchronize());
    double us = median_us([&] { c.kernel<<<grid, THREADS>>>(a, y, n); });
    if (us < 0)
      return 1;
    int blocks = std::min(resident, 8);
    std::printf("%d %d %d %d %d %.1f %.0f\n", c.s, c.v,
                blocks * THREADS / 32 * c.s * 128 * c.v, 128 * c.v, blocks, us,
                double(n) * COLS * 4 / us / 1e3);
  }
  return 0;
}
