// axpy: y = a*x + y with a per-architecture tuning table.
//
// The same std::map serves both sides: meta code reads it at generation time
// to give each architecture's kernel image its own block size and values per
// thread (compile-time constants, so the loads are unrolled and all issued
// before any arithmetic), and the host reads it at run time to size the
// grid. The host keys on metacu::loaded_arch, the architecture of the image
// the driver actually loaded, not on the device's compute capability: a
// binary carrying only compute_80 PTX runs the sm_80 variant on a 9.0 GPU,
// and sizing its grid for sm_90 would compute the wrong result. The program
// shows both, and measures its bandwidth against cudaMemcpy device to device.
//
//   axpy [n]    (default 2^26 values)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

#include "../common/sample.h"

struct axpy_config {
  int threads; // threads per block
  int items;   // values per thread
};

const std::map<int, axpy_config> axpy_tuning{
    {75, {256, 4}},
    {80, {256, 8}},
    {90, {512, 8}},
};

// Full tiles only, so no bounds check at all: each block handles
// cfg.threads * cfg.items values, every load is issued before the first
// multiply-add (2 * cfg.items independent loads in flight per thread).
__global__ void axpy(float a, const float* __restrict__ x, float* __restrict__ y) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta axpy_config cfg = metacu::select(axpy_tuning, (int)arch);
      size_t base = size_t(blockIdx.x) * @(cfg.threads * cfg.items) + threadIdx.x;
      float xv[cfg.items], yv[cfg.items];
      @meta for (int i = 0; i < cfg.items; ++i) {
        xv[i] = x[base + i * cfg.threads];
        yv[i] = y[base + i * cfg.threads];
      }
      @meta for (int i = 0; i < cfg.items; ++i)
        y[base + i * cfg.threads] = a * xv[i] + yv[i];
    }
  }
}

// The values after the last full tile, one per thread.
__global__ void axpy_tail(float a, const float* __restrict__ x,
                          float* __restrict__ y, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// y = a*x + y over n values with the geometry of cfg.
static void launch_axpy(axpy_config cfg, float a, const float* x, float* y, size_t n) {
  size_t per_block = size_t(cfg.threads) * cfg.items;
  size_t full = n / per_block;
  if (full > 0)
    axpy<<<unsigned(full), cfg.threads>>>(a, x, y);
  size_t rest = n - full * per_block;
  if (rest > 0)
    axpy_tail<<<unsigned((rest + 255) / 256), 256>>>(a, x + full * per_block,
                                                       y + full * per_block, rest);
}

// Runs axpy once on fresh copies of x and y with geometry cfg and counts the
// values that differ from the CPU's a*x + y.
static size_t run_and_check(axpy_config cfg, float a, const std::vector<float>& x,
                            const std::vector<float>& y, float* dx, float* dy) {
  size_t n = x.size();
  METACU_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  METACU_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  launch_axpy(cfg, a, dx, dy, n);
  METACU_CHECK(cudaGetLastError());
  METACU_CHECK(cudaDeviceSynchronize());
  std::vector<float> out(n);
  METACU_CHECK(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  // nvcc fuses a * x + y into one rounding; allow for the CPU's two.
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(std::fabs(out[i] - (a * x[i] + y[i])) <= 1e-6f * std::fabs(a * x[i] + y[i])))
      ++bad;
  return bad;
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t(1) << 26);
  const float a = 2.5f;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i % 1000) * 0.001f;
    y[i] = float(i % 7);
  }
  float *dx = nullptr, *dy = nullptr, *dcopy = nullptr;
  METACU_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dcopy, n * sizeof(float)));

  // The configuration of the image that runs, and what a lookup by the
  // device's compute capability would have chosen instead.
  int arch = metacu::loaded_arch(axpy);
  int cc = device_compute_capability();
  axpy_config cfg = metacu::select(axpy_tuning, arch);
  axpy_config by_cc = metacu::select(axpy_tuning, cc);
  size_t bad = run_and_check(cfg, a, x, y, dx, dy);
  std::printf("axpy: n=%zu, compute capability %d.%d, loaded image sm_%d, "
              "%d threads x %d values: %s\n",
              n, cc / 10, cc % 10, arch, cfg.threads, cfg.items,
              bad ? "MISMATCH" : "ok");
  std::printf("row|axpy|loaded image / config (loaded_arch)|sm_%d: %dx%d|%s\n",
              arch, cfg.threads, cfg.items, bad ? "MISMATCH" : "matches CPU");
  if (by_cc.threads != cfg.threads || by_cc.items != cfg.items) {
    size_t wrong = run_and_check(by_cc, a, x, y, dx, dy);
    std::printf("axpy: a lookup by compute capability %d would launch %d x %d "
                "for the sm_%d image: %zu of %zu values wrong\n",
                cc, by_cc.threads, by_cc.items, arch, wrong, n);
    std::printf("row|axpy|config by compute capability instead|%dx%d|%zu of %zu values wrong\n",
                by_cc.threads, by_cc.items, wrong, n);
  } else {
    std::printf("row|axpy|config by compute capability instead|%dx%d|same config\n",
                by_cc.threads, by_cc.items);
  }

  // Bandwidth, counting bytes read and written: axpy reads x and y and
  // writes y; a device-to-device copy of x reads and writes n floats.
  METACU_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  float axpy_ms = median_ms([&] { launch_axpy(cfg, a, dx, dy, n); });
  float copy_ms = median_ms([&] {
    METACU_CHECK(cudaMemcpyAsync(dcopy, dx, n * sizeof(float), cudaMemcpyDeviceToDevice));
  });
  double axpy_gbs = 3.0 * n * sizeof(float) / (axpy_ms * 1e6);
  double copy_gbs = 2.0 * n * sizeof(float) / (copy_ms * 1e6);
  std::printf("axpy: %.1f GB/s (%.3f ms), cudaMemcpy device to device %.1f GB/s "
              "(%.3f ms): %.2fx\n",
              axpy_gbs, axpy_ms, copy_gbs, copy_ms, axpy_gbs / copy_gbs);
  std::printf("row|axpy|bandwidth vs cudaMemcpy D2D|%.0f vs %.0f GB/s|%.2fx\n",
              axpy_gbs, copy_gbs, axpy_gbs / copy_gbs);

  METACU_CHECK(cudaFree(dx));
  METACU_CHECK(cudaFree(dy));
  METACU_CHECK(cudaFree(dcopy));
  return bad ? 1 : 0;
}
