// dma_window: 2D windows with their halo staged out of an image, zero
// outside it (metacu::dma's start_window), each mechanism in turn, per
// window size.
//
// Each block stages the window of its tile x tile_h outputs and a halo of 4
// floats on every side, then writes out[y][x] = in[y][x] + in[y-4][x-4]
// (the halo's value, 0 outside the image): the interior and the zero-filled
// border are both checked against the CPU, exactly. The image is 8000 x
// 6000 floats, so tiles are cut at its right and bottom edges too. For each
// window size the copy is planned with cp.async forced, registers forced,
// bulk forced (one cp.async.bulk per row inside the image, cp.async across
// a border) and the library's choice with a tensor map (on sm_90 one
// cp.async.bulk.tensor per window; elsewhere its own choice).
//
//   dma_window
#include <cstdio>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/dma.cuh>
#include <metacu/runtime.h>

#include "../common/sample.h"

constexpr int threads = 256;
constexpr int halo = 4;
constexpr int width = 8000, height = 6000;

template <class Copier, int TW, int TH>
__global__ void __launch_bounds__(threads)
    stage(const __grid_constant__ metacu::dma::image_map src, float* out) {
  __shared__ alignas(128) float tile[TH + 2 * halo][TW + 2 * halo];
  __shared__ metacu::dma::barrier bar;
  Copier dma(bar);
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  dma.start_window(tile, src, (x0 - halo) * 4, y0 - halo);
  dma.wait();
#pragma unroll
  for (int i = threadIdx.x; i < TW * TH; i += threads) {
    const int r = i / TW, c = i % TW;
    if (x0 + c < width && y0 + r < height)
      out[size_t(y0 + r) * width + x0 + c] = tile[r + halo][c + halo] + tile[r][c];
  }
}

template <class Copier, int TW, int TH>
bool measure(const char* label, const float* in, float* out, const std::vector<float>& expect) {
  const metacu::dma::image img{in, width * 4, width * 4, height};
  const metacu::dma::image_map src = Copier::map(img);
  const dim3 grid((width + TW - 1) / TW, (height + TH - 1) / TH);
  const size_t bytes = size_t(width) * height * 4;
  METACU_CHECK(cudaMemset(out, 0xff, bytes));
  const float ms = median_ms([&] { stage<Copier, TW, TH><<<grid, threads>>>(src, out); });
  std::vector<float> got(expect.size());
  METACU_CHECK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &expect[i], 4) != 0 && wrong++ == 0)
      std::printf("dma_window: %s: first wrong value at (%zu, %zu): %g, expected %g\n", label,
                  i % width, i / width, got[i], expect[i]);
  // Bytes read (windows, halo included) and written.
  const double moved = double(grid.x) * grid.y * (TW + 2 * halo) * (TH + 2 * halo) * 4 + bytes;
  std::printf("row|dma_window|%dx%d-float windows (%dx%d outputs), %s%s|%.3f ms|%.0f GB/s|%s\n",
              TW + 2 * halo, TH + 2 * halo, TW, TH, label, src.encoded ? ", map encoded" : "", ms,
              moved / (ms * 1e6), wrong ? "WRONG" : "exact");
  return wrong == 0;
}

int main() {
  std::vector<float> host(size_t(width) * height), expect(host.size());
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i % 65521) * 0.25f;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const bool inside = x >= halo && y >= halo;
      expect[size_t(y) * width + x] =
          host[size_t(y) * width + x] + (inside ? host[size_t(y - halo) * width + x - halo] : 0.0f);
    }
  float *in, *out;
  const size_t bytes = host.size() * 4;
  METACU_CHECK(cudaMalloc(&in, bytes));
  METACU_CHECK(cudaMalloc(&out, bytes));
  METACU_CHECK(cudaMemcpy(in, host.data(), bytes, cudaMemcpyHostToDevice));
  std::printf("dma_window: %d x %d floats, halo %d, compute capability %d\n", width, height, halo,
              device_compute_capability());
  std::printf("row|dma_window|window, mechanism|ms|GB/s (windows read + output written)|result\n");

  bool ok = true;
  @meta const char* labels[] = {"library's choice", "registers (forced)", "cp.async (forced)",
                                "bulk (forced)"};
  @meta for (auto [tw, th] : std::vector<std::pair<int, int>>{{32, 8}, {64, 16}, {128, 32}, {240, 32}}) {
    @meta for (int m : {3, 2, 1, 0}) {
      @meta auto p = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = (tw + 2 * halo) * 4,
                                        .rows = th + 2 * halo, .align = 16, .threads = threads,
                                        .force = metacu::dma::mechanism(m)});
      @meta if (m == 0 && tw == 128) { @meta p.diagnose(); }
      ok &= measure<@(p.type()), @(tw), @(th)>(@(std::string("\"") + labels[m] + "\""), in, out, expect);
    }
  }
  METACU_CHECK(cudaFree(in));
  METACU_CHECK(cudaFree(out));
  std::printf(ok ? "dma_window: all variants exact\n" : "dma_window: MISMATCH\n");
  return ok ? 0 : 1;
}
