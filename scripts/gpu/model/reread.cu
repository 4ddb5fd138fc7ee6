// reread: what a warp pays for reading a row another warp reads at the same
// time, from L1 (a warp of its block) or from L2 (a warp of the next
// block), at the same DRAM bytes (docs/report.md, "A wave's cost, spmv's
// lines and gemv's runs, measured": maxpool's overlapping windows take 20%
// more time than 2 x 2 windows at the same DRAM bytes). 2^20 rows of 512
// bytes, a warp a row (one float4 a lane), 256 threads a block, each thread
// storing one float:
//   own        the warp's row alone
//   l1         its row and the next warp's (the same block's but for its
//              last warp): every row read twice, the second from L1
//   l2         its row and the row of the same warp of the next block: every
//              row read twice, the second from L2
//   l1.3       the rows before and after its own too, as maxpool's windows
//   two        its row and one of another half of the array read by no one
//              else: twice the DRAM bytes, the loads of l1 and l2
// Without arguments each runs 20 times after a warm-up and its median is
// printed; with "once" each runs once (for Nsight Compute).
//   nvcc -O3 -arch=sm_90 -std=c++17 reread.cu -o reread
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "../check.h"
#include "../median_time.h"

constexpr int ROWS = 1 << 20, ROW = 128; // floats
constexpr int THREADS = 256, WARPS = THREADS / 32;

__device__ float4 row(const float *in, long r, int lane) {
  r = r < 0 ? 0 : r >= 2L * ROWS ? 2L * ROWS - 1 : r;
  return reinterpret_cast<const float4 *>(in + r * ROW)[lane];
}

__device__ float max4(float4 v) {
  return fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w));
}

// Offsets of the rows a warp reads besides its own (0: none).
template <int A, int B>
__global__ void __launch_bounds__(THREADS)
    rows(float *__restrict__ out, const float *__restrict__ in) {
  long w = long(blockIdx.x) * WARPS + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  float m = max4(row(in, w, lane));
  if (A != 0)
    m = fmaxf(m, max4(row(in, w + A, lane)));
  if (B != 0)
    m = fmaxf(m, max4(row(in, w + B, lane)));
  out[w * 32 + lane] = m;
}

struct Config {
  const char *name;
  void (*kernel)(float *, const float *);
};

const Config configs[] = {{"own", rows<0, 0>},
                          {"l1", rows<1, 0>},
                          {"l2", rows<WARPS, 0>},
                          {"l1.3", rows<-1, 1>},
                          {"two", rows<ROWS, 0>}};

int main(int argc, char **argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  size_t in_elems = 2ull * ROWS * ROW; // the second half: "two"'s rows
  float *in, *out;
  CHECK(cudaMalloc(&in, in_elems * sizeof(float)));
  CHECK(cudaMalloc(&out, size_t(ROWS) * 32 * sizeof(float)));
  CHECK(cudaMemset(in, 0, in_elems * sizeof(float)));
  int grid = ROWS / WARPS;
  for (const Config &c : configs) {
    c.kernel<<<grid, THREADS>>>(out, in);
    CHECK(cudaDeviceSynchronize());
    if (once)
      continue;
    double us = median_us([&] { c.kernel<<<grid, THREADS>>>(out, in); });
    if (us < 0)
      return 1;
    std::printf("%s %.1f us\n", c.name, us);
  }
  return 0;
}
