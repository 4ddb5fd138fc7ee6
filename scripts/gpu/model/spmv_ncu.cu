// spmv.cu's vector CSR kernel at one and four lanes a row, 1, 2, 4 and 8
// rows a group, 256 threads, alone, for Nsight Compute (wave-spmv-ncu):
// whether one lane a row over 4 or 8 rows (its warp's lanes 28-224 bytes
// apart in col and val, 448-512 KiB of lines an SM against 256 KiB of L1
// and shared memory) loses its lines in L1 before it reads their next word
// (docs/report.md, "spmv's slow corner, worked out"; the answer in "A
// wave's cost, spmv's lines and gemv's runs, measured"). Without arguments each
// runs 20 times after a warm-up and its median time is printed; with
// "once", each runs once (what ncu profiles).
//   nvcc -O3 -arch=sm_90 -std=c++17 spmv_ncu.cu -o spmv_ncu
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "../check.h"
#include "../median_time.h"

constexpr int SIDE = 128;
constexpr int ROWS = SIDE * SIDE * SIDE;

template <int tpr, int threads, int rpg>
__global__ void spmv(float *__restrict__ y, const int *__restrict__ row_ptr,
                     const int *__restrict__ col, const float *__restrict__ val,
                     const float *__restrict__ x, int rows) {
  int lane = threadIdx.x % tpr;
  int group = blockIdx.x * (threads / tpr) + threadIdx.x / tpr;
#pragma unroll
  for (int k = 0; k < rpg; ++k) {
    int row = group * rpg + k;
    float s = 0;
    if (row < rows)
      for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += tpr)
        s += val[j] * x[col[j]];
#pragma unroll
    for (int o = tpr / 2; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffffu, s, o, tpr);
    if (lane == 0 && row < rows)
      y[row] = s;
  }
}

struct Config {
  int tpr, threads, rpg;
  void (*kernel)(float *, const int *, const int *, const float *,
                 const float *, int);
};

#define C(TPR, T, RPG)                                                         \
  { TPR, T, RPG, spmv<TPR, T, RPG> }
const Config configs[] = {C(1, 256, 1), C(1, 256, 2), C(1, 256, 4),
                          C(1, 256, 8), C(4, 256, 1), C(4, 256, 2),
                          C(4, 256, 4), C(4, 256, 8)};

int main(int argc, char **argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  std::vector<int> row_ptr{0}, col;
  for (int r = 0; r < ROWS; ++r) {
    int i = r % SIDE, j = r / SIDE % SIDE, k = r / (SIDE * SIDE);
    // spmv.cu's order: the neighbours below, the diagonal, those above.
    const std::pair<bool, int> entries[] = {{k > 0, r - SIDE * SIDE},
                                            {j > 0, r - SIDE},
                                            {i > 0, r - 1},
                                            {true, r},
                                            {i < SIDE - 1, r + 1},
                                            {j < SIDE - 1, r + SIDE},
                                            {k < SIDE - 1, r + SIDE * SIDE}};
    for (auto [inside, c] : entries)
      if (inside)
        col.push_back(c);
    row_ptr.push_back(int(col.size()));
  }
  std::vector<float> val(col.size(), 1.0f);
  int *drow, *dcol;
  float *dval, *dx, *dy;
  CHECK(cudaMalloc(&drow, row_ptr.size() * sizeof(int)));
  CHECK(cudaMalloc(&dcol, col.size() * sizeof(int)));
  CHECK(cudaMalloc(&dval, val.size() * sizeof(float)));
  CHECK(cudaMalloc(&dx, ROWS * sizeof(float)));
  CHECK(cudaMalloc(&dy, ROWS * sizeof(float)));
  CHECK(cudaMemcpy(drow, row_ptr.data(), row_ptr.size() * sizeof(int),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dcol, col.data(), col.size() * sizeof(int),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dval, val.data(), val.size() * sizeof(float),
                   cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dx, 0, ROWS * sizeof(float)));
  for (const Config &c : configs) {
    int grid = ROWS / (c.threads / c.tpr * c.rpg);
    c.kernel<<<grid, c.threads>>>(dy, drow, dcol, dval, dx, ROWS);
    CHECK(cudaDeviceSynchronize());
    if (once)
      continue;
    double us = median_us([&] { c.kernel<<<grid, c.threads>>>(dy, drow, dcol, dval, dx, ROWS); });
    if (us < 0)
      return 1;
    std::printf("spmv %d %d %d %.1f us\n", c.tpr, c.threads, c.rpg,
                us);
  }
  return 0;
}
