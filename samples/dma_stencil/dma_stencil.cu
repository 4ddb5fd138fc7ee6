// dma_stencil: a 2D 5-point stencil over every plane of a 3D volume, in the
// spirit of CudaDMA's stencil example, written three ways:
//   - dma:       each block's tile (halo included) is a strided metacu::dma
//                copy, double-buffered with the two-phase form: the next
//                plane is in flight while the current one is computed;
//   - hand:      the same tile staged by hand (loads and stores by every
//                thread, then __syncthreads), one plane at a time;
//   - no shared: every thread reads its five inputs from global memory.
// The volume is padded (4 floats left and right of each row, one row above
// and below each plane), so each staged row starts 16-byte aligned and no
// copy needs a bounds check. All three are checked against the CPU.
//
//   dma_stencil
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/dma.cuh>
#include <metacu/runtime.h>

#include "../common/sample.h"

// One declaration each: meta code below reads them.
constexpr int nx = 1024; // interior of the volume
constexpr int ny = 1024;
constexpr int nz = 64;
constexpr int px = nx + 8; // padded row and plane
constexpr int py = ny + 2;
constexpr size_t plane = size_t(px) * py;
constexpr int tx = 64; // outputs per block: 64 x 16
constexpr int ty = 16;
constexpr int threads = 256;
constexpr int rows_per_thread = ty * tx / threads;
constexpr float c0 = 0.5f, c1 = 0.125f;

// One plane's tile: 18 rows of 72 floats out of rows of px floats.
@meta auto tile = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = (tx + 8) * 4,
                                     .rows = ty + 2, .src_pitch = px * 4, .align = 16,
                                     .threads = threads, .smem_bytes = 48 * 1024});
@meta tile.diagnose();
using tile_t = @(tile.type());

__device__ inline float point(const float (*t)[tx + 8], int y, int x) {
  return c0 * t[y][x] + c1 * (t[y][x - 1] + t[y][x + 1] + t[y - 1][x] + t[y + 1][x]);
}

__global__ void __launch_bounds__(threads) stencil_dma(const float* in, float* out) {
  __shared__ alignas(128) float buf[2][ty + 2][tx + 8];
  __shared__ metacu::dma::barrier bar;
  tile_t dma(bar);
  const int x0 = blockIdx.x * tx, y0 = blockIdx.y * ty;
  const float* src = in + size_t(y0) * px + x0;
  dma.start(buf[0], src);
  for (int z = 0; z < nz; ++z) {
    dma.wait();
    if (z + 1 < nz)
      dma.start(buf[(z + 1) & 1], src + (z + 1) * plane);
#pragma unroll
    for (int r = 0; r < rows_per_thread; ++r) {
      const int y = threadIdx.x / tx + r * (threads / tx), x = threadIdx.x % tx;
      out[z * plane + size_t(y0 + y + 1) * px + x0 + x + 4] = point(buf[z & 1], y + 1, x + 4);
    }
  }
}

__global__ void __launch_bounds__(threads) stencil_hand(const float* in, float* out) {
  __shared__ alignas(128) float buf[ty + 2][tx + 8];
  const int x0 = blockIdx.x * tx, y0 = blockIdx.y * ty;
  for (int z = 0; z < nz; ++z) {
    const float* src = in + z * plane + size_t(y0) * px + x0;
    for (int i = threadIdx.x; i < (ty + 2) * (tx + 8) / 4; i += threads) {
      const int r = i / ((tx + 8) / 4), c = i % ((tx + 8) / 4);
      reinterpret_cast<float4*>(buf[r])[c] = reinterpret_cast<const float4*>(src + size_t(r) * px)[c];
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < rows_per_thread; ++r) {
      const int y = threadIdx.x / tx + r * (threads / tx), x = threadIdx.x % tx;
      out[z * plane + size_t(y0 + y + 1) * px + x0 + x + 4] = point(buf, y + 1, x + 4);
    }
    __syncthreads();
  }
}

__global__ void __launch_bounds__(threads) stencil_global(const float* __restrict__ in, float* __restrict__ out) {
  const int x0 = blockIdx.x * tx, y0 = blockIdx.y * ty;
  for (int z = 0; z < nz; ++z) {
#pragma unroll
    for (int r = 0; r < rows_per_thread; ++r) {
      const int y = threadIdx.x / tx + r * (threads / tx), x = threadIdx.x % tx;
      const size_t i = z * plane + size_t(y0 + y + 1) * px + x0 + x + 4;
      out[i] = c0 * in[i] + c1 * (in[i - 1] + in[i + 1] + in[i - px] + in[i + px]);
    }
  }
}

int main() {
  const size_t n = plane * nz;
  std::vector<float> h(n, 0.0f), ref(n, 0.0f);
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x)
        h[z * plane + size_t(y + 1) * px + x + 4] = float((x * 7 + y * 13 + z * 3) % 101) * 0.01f;
  for (int z = 0; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const size_t i = z * plane + size_t(y + 1) * px + x + 4;
        ref[i] = c0 * h[i] + c1 * (h[i - 1] + h[i + 1] + h[i - px] + h[i + px]);
      }
  float *in, *out;
  METACU_CHECK(cudaMalloc(&in, n * 4));
  METACU_CHECK(cudaMalloc(&out, n * 4));
  METACU_CHECK(cudaMemcpy(in, h.data(), n * 4, cudaMemcpyHostToDevice));
  const dim3 grid(nx / tx, ny / ty);
  std::printf("dma_stencil: %d x %d x %d floats, compute capability %d\n", nx, ny, nz,
              device_compute_capability());
  tile_t::diagnose(stdout, {75, 80, 90});
  std::printf("row|dma_stencil|version|ms|GB/s (read + write)|result\n");
  bool ok = true;
  auto check = [&](const char* name, auto kernel) {
    METACU_CHECK(cudaMemset(out, 0, n * 4));
    const float ms = median_ms([&] { kernel<<<grid, threads>>>(in, out); });
    std::vector<float> got(n);
    METACU_CHECK(cudaMemcpy(got.data(), out, n * 4, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (size_t i = 0; i < n; ++i)
      worst = std::fmax(worst, std::fabs(double(got[i]) - ref[i]));
    const bool good = worst <= 1e-5;
    ok &= good;
    std::printf("row|dma_stencil|%s|%.3f ms|%.0f GB/s|%s (max error %.1e)\n", name, ms, 2.0 * nx * ny * nz * 4 / (ms * 1e6),
                good ? "ok" : "WRONG", worst);
  };
  check("dma (metacu::dma, double-buffered)", stencil_dma);
  check("hand-staged", stencil_hand);
  check("no shared memory", stencil_global);
  METACU_CHECK(cudaFree(in));
  METACU_CHECK(cudaFree(out));
  std::printf(ok ? "dma_stencil: all versions match the CPU\n" : "dma_stencil: MISMATCH\n");
  return ok ? 0 : 1;
}
