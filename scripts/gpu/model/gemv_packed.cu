// gemv_packed: whether a single wave of gemv is slow for the DRAM pages
// its warps read together or for the way its loads go out. gemv.cu's kernel
// ("rows": a thread's rows_per_thread rows 16 KiB apart, a pass reading the
// same columns of each) against the same loop reading a thread's region
// packed ("packed": a pass's rows_per_thread pieces of threads_per_row
// vectors side by side, so a warp's pass is one run of consecutive bytes;
// the same loads a thread, bytes, coalescing, x loads and, where the SASS
// says so, rounds of loads; its sums are not y = A x, so it is not checked).
// docs/report.md, "gemv's loop passes as ptxas issues them". Plain CUDA:
//   nvcc -O3 -arch=sm_90 gemv_packed.cu -o gemv_packed && ./gemv_packed
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

constexpr int ROWS = 14336;
constexpr int COLS = 4096;

#define CHECK(x)                                                               \
  do {                                                                         \
    cudaError_t e = (x);                                                       \
    if (e != cudaSuccess) {                                                    \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

__device__ inline float vdot(float a, float b) { return a * b; }
__device__ inline float vdot(float4 a, float4 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

template <int tpr, int groups, int rpt, typename V, bool packed>
__global__ void gemv(float* __restrict__ y, const float* __restrict__ A,
                     const float* __restrict__ x, int) {
  constexpr int n = COLS * sizeof(float) / sizeof(V);
  constexpr int warps = tpr / 32;
  size_t row = (size_t(blockIdx.x) * groups + threadIdx.y) * rpt;
  const V* a = reinterpret_cast<const V*>(A + row * COLS);
  const V* xv = reinterpret_cast<const V*>(x);
  float acc[rpt];
#pragma unroll
  for (int r = 0; r < rpt; ++r)
    acc[r] = 0;
  for (int i = threadIdx.x; i < n; i += tpr) {
    V xi = xv[i];
#pragma unroll
    for (int r = 0; r < rpt; ++r)
      acc[r] += vdot(packed ? a[(i - threadIdx.x) * rpt + r * tpr + threadIdx.x] : a[r * n + i], xi);
  }
#pragma unroll
  for (int r = 0; r < rpt; ++r)
    for (int o = 16; o > 0; o /= 2)
      acc[r] += __shfl_xor_sync(0xffffffffu, acc[r], o);
  if (warps == 1) {
    if (threadIdx.x == 0)
#pragma unroll
      for (int r = 0; r < rpt; ++r)
        y[row + r] = acc[r];
    return;
  }
  __shared__ float part[groups][rpt][warps];
  if (threadIdx.x % 32 == 0)
#pragma unroll
    for (int r = 0; r < rpt; ++r)
      part[threadIdx.y][r][threadIdx.x / 32] = acc[r];
  __syncthreads();
  if (threadIdx.x < rpt) {
    float s = 0;
    for (int w = 0; w < warps; ++w)
      s += part[threadIdx.y][threadIdx.x][w];
    y[row + threadIdx.x] = s;
  }
}

struct Case {
  const char* name;
  int tpr, groups, rpt, vec;
  void (*rows)(float*, const float*, const float*, int);
  void (*packed)(float*, const float*, const float*, int);
};

#define CASE(T, G, R, V)                                                       \
  Case{#T "," #G "," #R "," #V, T, G, R, sizeof(V) / 4, gemv<T, G, R, V, false>, gemv<T, G, R, V, true>}

int main() {
  const Case cases[] = {
      CASE(32, 4, 4, float),  CASE(32, 1, 4, float),  CASE(32, 8, 4, float4),
      CASE(32, 4, 2, float),  CASE(64, 4, 4, float),  CASE(64, 4, 4, float4),
      CASE(256, 1, 4, float), CASE(128, 2, 2, float), CASE(512, 1, 4, float4),
  };
  size_t elems = size_t(ROWS) * COLS;
  std::vector<float> a(elems), xs(COLS), ref(ROWS), got(ROWS);
  for (size_t i = 0; i < elems; ++i)
    a[i] = float(int(i * 7 % 13) - 6) / 8;
  for (int j = 0; j < COLS; ++j)
    xs[j] = float(int(j * 5 % 11) - 5) / 4;
  for (int r = 0; r < ROWS; ++r) {
    double s = 0;
    for (int j = 0; j < COLS; ++j)
      s += double(a[size_t(r) * COLS + j]) * xs[j];
    ref[r] = float(s);
  }
  float *da, *dx, *dy;
  CHECK(cudaMalloc(&da, elems * 4));
  CHECK(cudaMalloc(&dx, COLS * 4));
  CHECK(cudaMalloc(&dy, ROWS * 4));
  CHECK(cudaMemcpy(da, a.data(), elems * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dx, xs.data(), COLS * 4, cudaMemcpyHostToDevice));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  std::printf("config(tpr,groups,rpt,vec) grid rows_us packed_us (median of 3 rounds of 15, interleaved)\n");
  for (const Case& c : cases) {
    int grid = ROWS / (c.groups * c.rpt);
    dim3 block(c.tpr, c.groups);
    std::vector<float> times[2];
    for (int round = 0; round < 3; ++round)
      for (int v = 0; v < 2; ++v) {
        auto kernel = v ? c.packed : c.rows;
        CHECK(cudaMemset(dy, 0xff, ROWS * 4));
        kernel<<<grid, block>>>(dy, da, dx, 0);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(got.data(), dy, ROWS * 4, cudaMemcpyDeviceToHost));
        for (int r = 0; r < ROWS && !v; ++r)
          if (got[r] != ref[r]) {
            std::fprintf(stderr, "%s %s: row %d %g != %g\n", c.name, "rows", r, got[r], ref[r]);
            return 1;
          }
        for (int i = 0; i < 15; ++i) {
          CHECK(cudaEventRecord(t0));
          kernel<<<grid, block>>>(dy, da, dx, 0);
          CHECK(cudaEventRecord(t1));
          CHECK(cudaEventSynchronize(t1));
          float ms;
          CHECK(cudaEventElapsedTime(&ms, t0, t1));
          times[v].push_back(ms * 1000);
        }
      }
    for (auto& t : times)
      std::nth_element(t.begin(), t.begin() + t.size() / 2, t.end());
    std::printf("%-12s %6d %8.1f %8.1f\n", c.name, grid, times[0][times[0].size() / 2],
                times[1][times[1].size() / 2]);
  }
  return 0;
}
