// dma_sequential: global -> shared -> global staging of a large array with
// metacu::dma, against cudaMemcpy device to device.
//
// Each block stages one tile of `tile` bytes into shared memory with a
// sequential copy and writes it back out. For each tile size the copy is
// planned four times: the library's own choice per architecture, then each
// mechanism forced (on architectures that lack it the library's choice runs
// instead). Every variant's output is checked against the input on the CPU.
//
//   dma_sequential [MiB]    (default 256 MiB)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/dma.cuh>
#include <metacu/runtime.h>

#include "../common/sample.h"

constexpr int threads = 256;

template <class Copier, int Tile>
__global__ void __launch_bounds__(threads) stage(const float4* src, float4* dst) {
  __shared__ alignas(128) float4 tile[Tile / 16];
  __shared__ metacu::dma::barrier bar;
  Copier dma(bar);
  const size_t base = size_t(blockIdx.x) * (Tile / 16);
  dma.copy(tile, src + base);
#pragma unroll
  for (int i = 0; i < Tile / 16 / threads; ++i)
    dst[base + threadIdx.x + i * threads] = tile[threadIdx.x + i * threads];
}

// Each tile cut short at run time: only its first `valid` bytes exist, the
// rest of the tile in shared memory is zero-filled (start_edge).
template <class Copier, int Tile>
__global__ void __launch_bounds__(threads) stage_edge(const float4* src, float4* dst, int valid) {
  __shared__ alignas(128) float4 tile[Tile / 16];
  __shared__ metacu::dma::barrier bar;
  Copier dma(bar);
  const size_t base = size_t(blockIdx.x) * (Tile / 16);
  dma.start_edge(tile, src + base, valid);
  dma.wait();
#pragma unroll
  for (int i = 0; i < Tile / 16 / threads; ++i)
    dst[base + threadIdx.x + i * threads] = tile[threadIdx.x + i * threads];
}

template <class Copier, int Tile>
bool check_edge(const char* label, const float4* src, float4* dst, size_t bytes,
                const std::vector<float>& host) {
  const int valid = Tile - 100; // a partial 16-byte access, then whole zero ones
  METACU_CHECK(cudaMemset(dst, 0xff, bytes));
  stage_edge<Copier, Tile><<<unsigned(bytes / Tile), threads>>>(src, dst, valid);
  METACU_CHECK(cudaGetLastError());
  std::vector<unsigned char> got(bytes);
  METACU_CHECK(cudaMemcpy(got.data(), dst, bytes, cudaMemcpyDeviceToHost));
  const unsigned char* want = reinterpret_cast<const unsigned char*>(host.data());
  size_t wrong = 0;
  for (size_t i = 0; i < bytes; ++i) {
    const unsigned char expect = i % Tile < size_t(valid) ? want[i] : 0;
    if (got[i] != expect && wrong++ == 0)
      std::printf("start_edge: first wrong byte %zu (tile offset %zu): %d, expected %d\n", i, i % Tile, got[i],
                  expect);
  }
  std::printf("row|dma_sequential|%d-byte tiles, %s, start_edge (%d bytes valid, rest zero-filled)|-|-|%s\n",
              Tile, label, valid, wrong ? "WRONG" : "exact");
  return wrong == 0;
}

// Times one variant and checks its output; returns false on a mismatch.
template <class Copier, int Tile>
bool measure(const char* label, const float4* src, float4* dst, size_t bytes,
             const std::vector<float>& expect, double memcpy_gbs) {
  const unsigned blocks = unsigned(bytes / Tile);
  METACU_CHECK(cudaMemset(dst, 0, bytes));
  const float ms = median_ms([&] { stage<Copier, Tile><<<blocks, threads>>>(src, dst); });
  std::vector<float> got(expect.size());
  METACU_CHECK(cudaMemcpy(got.data(), dst, bytes, cudaMemcpyDeviceToHost));
  const bool ok = std::memcmp(got.data(), expect.data(), bytes) == 0;
  const double gbs = 2.0 * bytes / (ms * 1e6);
  std::printf("row|dma_sequential|%d-byte tiles, %s|%.0f GB/s|%.2fx|%s\n", Tile, label, gbs, gbs / memcpy_gbs,
              ok ? "exact" : "WRONG");
  return ok;
}

int main(int argc, char** argv) {
  const size_t mib = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 256;
  const size_t bytes = mib << 20;
  std::vector<float> host(bytes / 4);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i % 1000003) * 0.5f;
  float4 *src, *dst;
  METACU_CHECK(cudaMalloc(&src, bytes));
  METACU_CHECK(cudaMalloc(&dst, bytes));
  METACU_CHECK(cudaMemcpy(src, host.data(), bytes, cudaMemcpyHostToDevice));

  const float memcpy_ms = median_ms([&] { cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice); });
  const double memcpy_gbs = 2.0 * bytes / (memcpy_ms * 1e6);
  std::printf("dma_sequential: %zu MiB, compute capability %d\n", mib, device_compute_capability());
  std::printf("row|dma_sequential|copy|GB/s (read + write)|vs cudaMemcpy|result\n");
  std::printf("row|dma_sequential|cudaMemcpy D2D|%.0f GB/s|1.00x|-\n", memcpy_gbs);

  bool ok = true;
  @meta const char* labels[] = {"library's choice", "registers (forced)", "cp.async (forced)", "bulk (forced)"};
  @meta for (int tile : {4096, 16384, 32768}) {
    @meta for (int m = 0; m < 4; ++m) {
      @meta auto p = metacu::dma::plan({.bytes = tile, .align = 16, .threads = threads,
                                        .force = metacu::dma::mechanism(m)});
      @meta if (m == 0 && tile == 16384) { @meta p.diagnose(); }
      ok &= check_edge<@(p.type()), @(tile)>(@(std::string("\"") + labels[m] + "\""), src, dst, bytes, host);
      ok &= measure<@(p.type()), @(tile)>(@(std::string("\"") + labels[m] + "\""), src, dst, bytes, host, memcpy_gbs);
    }
  }
  METACU_CHECK(cudaFree(src));
  METACU_CHECK(cudaFree(dst));
  std::printf(ok ? "dma_sequential: all variants exact\n" : "dma_sequential: MISMATCH\n");
  return ok ? 0 : 1;
}
