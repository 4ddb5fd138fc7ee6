// pool_loads: why maxpool's loads wait longer than a stream's with the same
// bytes in flight (docs/report.md, "A wave's cost, spmv's lines and gemv's
// runs, measured": one output a thread, 32 KiB an SM, 64% of DRAM's peak
// against a stream's 88%). The same 2,048 planes of 112 x 112 floats, 32 x 8
// threads a block, one output a thread, read five ways that keep a warp's
// new bytes (two input rows of 256 bytes) and the DRAM bytes alike:
//   3x3        maxpool.cu's windows: 9 loads, rows shared with the warp
//              above (from L1 or L2), lanes two floats apart
//   2x2        windows of 2 x 2, no overlap: 4 loads, lanes two floats apart
//   2x2.f2     the same as 2 float2 loads: each a warp's 256 consecutive bytes
//   2x2.f2x3   2x2.f2's two loads written three times over (asm volatile,
//              all six used), meant as more requests on the same lines:
//              ptxas merges the repeated .nc loads (Nsight Compute counts
//              2x2.f2's requests), so it measures 2x2.f2 again
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

constexpr int PLANES = 32 * 64;
constexpr int H = 112, W = 112;
constexpr int HO = H / 2, WO = W / 2;

__global__ void __launch_bounds__(256)
    pool3x3(float *__restrict__ out, const float *__restrict__ in) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= WO || y >= HO)
    return;
  const float *p = in + size_t(blockIdx.z) * H * W;
  float m = -INFINITY;
#pragma unroll
  for (int i = 0; i < 3; ++i) {
    int r = 2 * y - 1 + i;
    if (r < 0)
      continue;
#pragma unroll
    for (int j = 0; j < 3; ++j) {
      int c = 2 * x - 1 + j;
      if (c >= 0)
        m = fmaxf(m, p[r * W + c]);
    }
  }
  out[size_t(blockIdx.z) * HO * WO + y * WO + x] = m;
}

__global__ void __launch_bounds__(256)
    pool2x2(float *__restrict__ out, const float *__restrict__ in) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= WO || y >= HO)
    return;
  const float *p = in + size_t(blockIdx.z) * H * W + 2 * y * W + 2 * x;
  float m = fmaxf(fmaxf(p[0], p[1]), fmaxf(p[W], p[W + 1]));
  out[size_t(blockIdx.z) * HO * WO + y * WO + x] = m;
}

template <int Times>
__global__ void __launch_bounds__(256)
    pool2x2f2(float *__restrict__ out, const float *__restrict__ in) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= WO || y >= HO)
    return;
  const float *p = in + size_t(blockIdx.z) * H * W + 2 * y * W + 2 * x;
  float m = -INFINITY;
#pragma unroll
  for (int t = 0; t < Times; ++t) {
    // asm volatile keeps each repeat a load of its own.
    float2 a, b;
    asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];"
                 : "=f"(a.x), "=f"(a.y)
                 : "l"(p));
    asm volatile("ld.global.nc.v2.f32 {%0, %1}, [%2];"
                 : "=f"(b.x), "=f"(b.y)
                 : "l"(p + W));
    m = fmaxf(m, fmaxf(fmaxf(a.x, a.y), fmaxf(b.x, b.y)));
  }
  out[size_t(blockIdx.z) * HO * WO + y * WO + x] = m;
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
    {"3x3", pool3x3, PoolGrid},
    {"2x2", pool2x2, PoolGrid},
    {"2x2.f2", pool2x2f2<1>, PoolGrid},
    {"2x2.f2x3", pool2x2f2<3>, PoolGrid},
    {"stream", stream, dim3(unsigned(size_t(PLANES) * H * W / (256 * 4)))}};

int main(int argc, char **argv) {
  bool once = argc > 1 && std::strcmp(argv[1], "once") == 0;
  size_t in_elems = size_t(PLANES) * H * W;
  float *in, *out;
  CHECK(cudaMalloc(&in, in_elems * sizeof(float)));
  CHECK(cudaMalloc(&out, in_elems / 4 * sizeof(float)));
  CHECK(cudaMemset(in, 0, in_elems * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  for (const Config &c : configs) {
    dim3 block = c.kernel == stream ? dim3(256) : dim3(32, 8);
    c.kernel<<<c.grid, block>>>(out, in);
    CHECK(cudaDeviceSynchronize());
    if (once)
      continue;
    std::vector<float> t;
    for (int i = 0; i < 20; ++i) {
      CHECK(cudaEventRecord(start));
      c.kernel<<<c.grid, block>>>(out, in);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, start, stop));
      t.push_back(ms * 1000);
    }
    CHECK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    std::printf("%s %.1f us\n", c.name, t[t.size() / 2]);
  }
  return 0;
}
