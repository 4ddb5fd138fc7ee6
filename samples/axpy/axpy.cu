// axpy: y = a*x + y with a per-architecture tuning table, and a tuning
// space for `metacu tune`.
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
// axpy is memory-bound: 12 bytes move per 2 flops. What decides its speed is
// how many bytes each block moves (the GPU starts blocks at a bounded rate:
// 32 threads with one float each reach a fifth of the bandwidth on an H100),
// how many each SM keeps in flight against the DRAM latency (threads x
// values per thread x vector width), and how long the last blocks take to
// drain. `metacu tune axpy.cu --arch 90` searches those (the space below);
// docs/report.md compares the model's ranking with the measured one.
//
//   axpy [n]    (default 2^26 values)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

#include "../common/sample.h"

struct axpy_config {
  int threads;            // threads per block
  int items;              // vectors per thread
  int vec = 1;            // floats per load and store: 1, 2 (float2) or 4 (float4)
  bool streaming = false; // evict-first cache hints (__ldcs/__stcs): the data is touched once
};

const std::map<int, axpy_config> axpy_tuning{
    {75, {256, 4}},
    {80, {256, 8}},
    {90, {512, 8}},
};

// What `metacu tune` searches. The problem size is a multiple of every
// candidate's tile (threads x items x vec), so no tail kernel runs.
constexpr size_t problem_n = size_t(3) << 24;
@meta metacu::tune_space space =
    metacu::tune_space("axpy")
        .param("block_size_x", {32, 64, 128, 256, 512, 1024})
        .param("items_per_thread", {1, 2, 3, 4, 6, 8, 12, 16})
        .param("vector_width", {1, 2, 4})
        .flag("streaming")
        .launch([](const metacu::json& p) { // as main launches a candidate
          long long tile = p["block_size_x"].as_int() * p["items_per_thread"].as_int() *
                           p["vector_width"].as_int();
          return metacu::tune_launch{{p["block_size_x"].as_int()},
                                     {((long long)problem_n + tile - 1) / tile}};
        })
        .problem_size({(long long)problem_n})
        .metric("GB/s", 3.0 * 4 * problem_n / 1e9, metacu::tune_direction::maximize)
        .tolerance(1e-5);

@meta axpy_config from_params(const metacu::json& p) {
  return axpy_config{p["block_size_x"].as_int(), p["items_per_thread"].as_int(),
                     p["vector_width"].as_int(), p["streaming"].as_bool()};
}

@meta struct variant {
  std::string name;
  bool per_arch;      // the configuration comes from axpy_tuning
  axpy_config config; // otherwise this one
};

// The per-architecture kernel, and under `metacu tune` one kernel per
// candidate it measures (the program's main, which a tuning build leaves
// out, still names axpy when `metacu report` compiles the candidates).
@meta std::vector<variant> variants() {
  std::vector<variant> v = {{"axpy", true, {}}};
  for (const metacu::tune_candidate& c : metacu::tune_candidates(space))
    v.push_back({c.name, false, from_params(c.params)});
  return v;
}

__device__ __forceinline__ float axpy_op(float a, float x, float y) { return a * x + y; }
__device__ __forceinline__ float2 axpy_op(float a, float2 x, float2 y) {
  return make_float2(a * x.x + y.x, a * x.y + y.y);
}
__device__ __forceinline__ float4 axpy_op(float a, float4 x, float4 y) {
  return make_float4(a * x.x + y.x, a * x.y + y.y, a * x.z + y.z, a * x.w + y.w);
}

// Full tiles only, so no bounds check at all: each block handles
// cfg.threads * cfg.items vectors, every load is issued before the first
// multiply-add (2 * cfg.items independent loads in flight per thread), and
// a warp's i-th loads cover consecutive vectors (coalesced).
@meta for (const variant& v : variants()) {
__global__ void @(v.name)(float a, const float* __restrict__ x, float* __restrict__ y) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta axpy_config cfg = v.per_arch ? metacu::select(axpy_tuning, (int)arch) : v.config;
      @meta std::string type = cfg.vec == 1 ? "float" : "float" + std::to_string(cfg.vec);
      using vec_t = @(type);
      const vec_t* xv = reinterpret_cast<const vec_t*>(x);
      vec_t* yv = reinterpret_cast<vec_t*>(y);
      size_t base = size_t(blockIdx.x) * @(cfg.threads * cfg.items) + threadIdx.x;
      vec_t xs[cfg.items], ys[cfg.items];
      @meta for (int i = 0; i < cfg.items; ++i) {
        @meta if (cfg.streaming) {
          xs[i] = __ldcs(xv + base + @(i * cfg.threads));
          ys[i] = __ldcs(yv + base + @(i * cfg.threads));
        } else {
          xs[i] = xv[base + @(i * cfg.threads)];
          ys[i] = yv[base + @(i * cfg.threads)];
        }
      }
      @meta for (int i = 0; i < cfg.items; ++i) {
        @meta if (cfg.streaming) {
          __stcs(yv + base + @(i * cfg.threads), axpy_op(a, xs[i], ys[i]));
        } else {
          yv[base + @(i * cfg.threads)] = axpy_op(a, xs[i], ys[i]);
        }
      }
    }
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

// y = a*x + y over n values with kernel, whose geometry is cfg.
static void launch_axpy(void (*kernel)(float, const float*, float*), axpy_config cfg, float a,
                        const float* x, float* y, size_t n) {
  size_t per_block = size_t(cfg.threads) * cfg.items * cfg.vec;
  size_t full = n / per_block;
  if (full > 0)
    kernel<<<unsigned(full), cfg.threads>>>(a, x, y);
  size_t rest = n - full * per_block;
  if (rest > 0)
    axpy_tail<<<unsigned((rest + 255) / 256), 256>>>(a, x + full * per_block,
                                                       y + full * per_block, rest);
}

const float axpy_a = 2.5f;

// The inputs, the same in the program and the tuning problem.
static void make_inputs(size_t n, std::vector<float>& x, std::vector<float>& y) {
  x.resize(n);
  y.resize(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i % 1000) * 0.001f;
    y[i] = float(i % 7);
  }
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct axpy_variant {
  const char* name;
  void (*kernel)(float, const float*, float*);
  axpy_config config;
};

const axpy_variant axpy_candidates[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), from_params(c.params)},
  }
};

// The tuning problem (metacu/tune.h): x and y made once, y restored before
// each checked run, the result checked against the CPU's a*x + y in double.
struct axpy_problem {
  size_t n;
  std::vector<float> x, y, out;
  float *dx = nullptr, *dy = nullptr, *dy0 = nullptr;

  explicit axpy_problem(const std::vector<long long>& size) : n(size_t(size.at(0))), out(n) {
    make_inputs(n, x, y);
    METACU_CHECK(cudaMalloc(&dx, n * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dy, n * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dy0, n * sizeof(float)));
    METACU_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(dy0, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof axpy_candidates / sizeof axpy_candidates[0]; }
  void clear() {
    METACU_CHECK(cudaMemcpy(dy, dy0, n * sizeof(float), cudaMemcpyDeviceToDevice));
  }
  void launch(size_t i) {
    launch_axpy(axpy_candidates[i].kernel, axpy_candidates[i].config, axpy_a, dx, dy, n);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    double max_err = 0.0;
    for (size_t i = 0; i < n; ++i) {
      double err = std::fabs(out[i] - (double(axpy_a) * x[i] + y[i]));
      if (!(err <= max_err)) // NaN counts as infinite
        max_err = std::isnan(err) ? INFINITY : err;
    }
    return max_err;
  }
};
METACU_TUNE_MAIN(axpy_problem)
#else
// Runs axpy once on fresh copies of x and y with geometry cfg and counts the
// values that differ from the CPU's a*x + y.
static size_t run_and_check(axpy_config cfg, float a, const std::vector<float>& x,
                            const std::vector<float>& y, float* dx, float* dy) {
  size_t n = x.size();
  METACU_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  METACU_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  launch_axpy(axpy, cfg, a, dx, dy, n);
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
  const float a = axpy_a;
  std::vector<float> x, y;
  make_inputs(n, x, y);
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
  float axpy_ms = median_ms([&] { launch_axpy(axpy, cfg, a, dx, dy, n); });
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
#endif
