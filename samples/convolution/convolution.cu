// convolution: a 2D convolution (17x17 filter in constant memory, zero
// outside the image) whose block size, tile size, shared-memory padding and
// read-only-cache use come, per architecture, from convolution.tuning.json,
// the tuning file `metacu tune` writes, read by @meta code at generation time
// (editing the file regenerates the kernel).
//
// Each block stages its input tile and halo in shared memory; each thread
// then computes tile.x * tile.y outputs, sliding a register window along
// each input row so that one shared-memory load feeds many multiply-adds
// whose filter coefficient is a constant-bank operand. All of it is unrolled
// with the configuration's constants; no branch is left in the inner loops.
//
// The staging is written twice: by hand (every thread loads floats and
// stores them), and with metacu::dma (start_window: the window of the image
// with its halo, zero outside; on sm_90 one tensor copy per block through
// an image_map built on the host). The program runs the per-architecture
// kernel and the default 16x16, untiled, padded one, each staged both ways
// (and the per-architecture one with a bulk copy per row forced), on the
// same image, checks all against the CPU and reports GFLOP/s and the ratio
// of library to hand-written staging. `--search` also times every candidate in convolution.json.
// `metacu tune convolution.cu --arch 90` searches the space declared below
// (docs/tune.md).
//
//   convolution [--search] [width height]    (default 4096 x 4096)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/dma.cuh>
#include <metacu/runtime.h>

#include "../common/sample.h"

constexpr int radius = 8;
constexpr int taps = 2 * radius + 1;

struct conv_config {
  int block_x, block_y; // threads per block
  int tile_x, tile_y;   // outputs per thread
  int pad;              // floats added to each shared-memory row
  bool ldg;             // stage through the read-only cache
};

__constant__ float c_filter[taps * taps];

@meta auto settings = metacu::load_json("convolution.json");
@meta auto tuning = metacu::load_json("convolution.tuning.json");

@meta conv_config parse(const metacu::json& j) {
  return conv_config{j["block"][0].as_int(), j["block"][1].as_int(), j["tile"][0].as_int(),
                     j["tile"][1].as_int(), j["pad"].as_int(), j["ldg"].as_bool()};
}

// A configuration as `metacu tune` names its parameters.
@meta conv_config from_params(const metacu::json& p) {
  return conv_config{p["block_size_x"].as_int(), p["block_size_y"].as_int(),
                     p["tile_size_x"].as_int(),  p["tile_size_y"].as_int(),
                     p["pad"].as_int(),          p["read_only"].as_bool()};
}

constexpr int problem_w = 4096;
constexpr int problem_h = 4096;

// What `metacu tune` searches: the Kernel Tuner tutorial's space (block
// sizes 16..128 x 1..16, tiles 1..4 x 1..4, padding, read-only loads),
// less what cannot run: more than 1024 threads, or a staged tile over the
// 48 KiB of static shared memory (the kernel refuses those).
@meta int staged_bytes(const metacu::json& p) {
  int in_w = p["block_size_x"].as_int() * p["tile_size_x"].as_int() + 2 * radius;
  int in_h = p["block_size_y"].as_int() * p["tile_size_y"].as_int() + 2 * radius;
  return in_h * (in_w + p["pad"].as_int()) * 4;
}
@meta metacu::tune_space space =
    metacu::tune_space("convolution")
        .param("block_size_x", {16, 32, 48, 64, 80, 96, 112, 128})
        .param("block_size_y", {1, 2, 4, 8, 16})
        .param("tile_size_x", {1, 2, 3, 4})
        .param("tile_size_y", {1, 2, 3, 4})
        .param("pad", {0, 1})
        .flag("read_only")
        .require([](const metacu::json& p) {
          return p["block_size_x"].as_int() * p["block_size_y"].as_int() <= 1024;
        })
        .require([](const metacu::json& p) { return staged_bytes(p) <= 48 * 1024; })
        .launch([](const metacu::json& p) { // as conv_problem::launch does
          long long out_w = p["block_size_x"].as_int() * p["tile_size_x"].as_int();
          long long out_h = p["block_size_y"].as_int() * p["tile_size_y"].as_int();
          return metacu::tune_launch{{p["block_size_x"].as_int(), p["block_size_y"].as_int()},
                                     {(problem_w + out_w - 1) / out_w, (problem_h + out_h - 1) / out_h}};
        })
        .problem_size({problem_w, problem_h})
        .metric("GFLOP/s", 2.0 * taps * taps * problem_w * problem_h / 1e9,
                metacu::tune_direction::maximize)
        .tolerance(1e-4);

@meta std::map<int, conv_config> tuned_table() {
  std::map<int, conv_config> table;
  for (const auto& [key, entry] : tuning["entries"].items())
    table[std::stoi(key.substr(3))] = from_params(entry["params"]);
  return table;
}

@meta struct variant {
  std::string name;
  bool per_arch;      // the configuration comes from tuned_table()
  conv_config config; // otherwise this one
  // The tile staged by metacu::dma instead of by hand, from an image_map
  // (a tensor copy on sm_90 where the plan allows it), with this mechanism.
  bool dma = false;
  metacu::dma::mechanism force = metacu::dma::mechanism::automatic;
};

@meta std::vector<variant> variants() {
  // Under `metacu tune`, one specialization per configuration it measures,
  // and nothing else to compile.
  std::vector<variant> v;
  for (const metacu::tune_candidate& c : metacu::tune_candidates(space))
    v.push_back({c.name, false, from_params(c.params)});
  if (!v.empty())
    return v;
  const conv_config fallback = parse(settings["default"]);
  v = {{"conv_tuned", true, {}},
       {"conv_tuned_dma", true, {}, true},
       {"conv_tuned_dma_rows", true, {}, true, metacu::dma::mechanism::bulk},
       {"conv_default", false, fallback},
       {"conv_default_dma", false, fallback, true}};
  const size_t fixed = v.size();
  for (const auto& c : settings["candidates"].elements())
    v.push_back({"conv_candidate" + std::to_string(v.size() - fixed), false, parse(c)});
  return v;
}

// The host's copy of the per-architecture table, for metacu::select.
const std::map<int, conv_config> conv_tuning = {
  @meta for (const auto& entry : tuned_table()) {
    {@(entry.first), @(entry.second)},
  }
};

@meta for (const variant& v : variants()) {
__global__ void @(v.name)(@(v.dma ? "const __grid_constant__ metacu::dma::image_map src" : "const float* in"),
                          float* __restrict__ out, int w, int h) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta conv_config c = v.per_arch ? metacu::select(tuned_table(), (int)arch) : v.config;
      @meta int threads = c.block_x * c.block_y;
      @meta int out_w = c.block_x * c.tile_x, out_h = c.block_y * c.tile_y;
      @meta int in_w = out_w + 2 * radius, in_h = out_h + 2 * radius;
      @meta int stride = in_w + c.pad;
      @meta bool vector_rows = c.tile_x % 4 == 0 && stride % 4 == 0;
      @meta if (in_h * stride * 4 > 48 * 1024)
        metacu::fail(v.name + ": the staged tile needs more than 48 KiB of shared memory");

      __shared__ __align__(128) float staged[in_h * stride];
      const int x0 = blockIdx.x * out_w, y0 = blockIdx.y * out_h;

      @meta if (v.dma) {
        // Stage the tile and its halo with metacu::dma: in_h rows of in_w
        // floats out of the image's rows of w floats, zero outside the
        // image. When the window's x (a multiple of out_w less the radius)
        // and the image's pitch are multiples of 4 floats, 16-byte copies:
        // on sm_90 one tensor copy through src's map where the rows are
        // packed in shared memory (pad 0), else one bulk copy per row where
        // the window is inside the image. Otherwise 4-byte copies.
        @meta int align = out_w % 4 == 0 && radius % 4 == 0 ? 16 : 4;
        @meta metacu::dma::spec rows = {.kind = metacu::dma::pattern::strided, .bytes = in_w * 4,
                                        .rows = in_h, .dst_pitch = stride * 4, .align = align,
                                        .threads = threads, .smem_bytes = 48 * 1024,
                                        .hint = c.ldg ? metacu::dma::cache::non_coherent
                                                      : metacu::dma::cache::normal,
                                        .force = v.force};
        @meta auto wide = metacu::dma::plan(rows);
        @meta rows.align = 4;
        @meta rows.force = metacu::dma::mechanism::automatic;
        @meta auto narrow = metacu::dma::plan(rows);
        __shared__ metacu::dma::barrier bar;
        if (w % (align / 4) == 0) {
          @(wide.type()) dma(bar);
          dma.start_window(staged, src, (x0 - radius) * 4, y0 - radius);
          dma.wait();
        } else {
          @(narrow.type()) dma(bar);
          dma.start_window(staged, src.img, (x0 - radius) * 4, y0 - radius);
          dma.wait();
        }
      } else {
        // Stage the tile and its halo; only the last round can run past it.
        const int tid = threadIdx.y * c.block_x + threadIdx.x;
        @meta for (int s = 0; s * threads < in_w * in_h; ++s) {
          int idx = tid + s * threads;
          if (@((s + 1) * threads <= in_w * in_h) || idx < in_w * in_h) {
            int row = idx / in_w, col = idx % in_w;
            int gx = x0 + col - radius, gy = y0 + row - radius;
            float value = 0.0f;
            if (gx >= 0 && gx < w && gy >= 0 && gy < h)
              value = @(c.ldg ? "__ldg(&in[size_t(gy) * w + gx])" : "in[size_t(gy) * w + gx]");
            staged[row * stride + col] = value;
          }
        }
        __syncthreads();
      }

      // Input row r of this thread's window feeds output row v through
      // filter row r - v; metacu drops the pairs outside the filter.
      const float* window = &staged[threadIdx.y * @(c.tile_y * stride) + threadIdx.x * c.tile_x];
      float acc[c.tile_y][c.tile_x] = {};
      @meta for (int r = 0; r < c.tile_y + 2 * radius; ++r) {
        float seg[c.tile_x + 2 * radius];
        @meta if (vector_rows) {
#pragma unroll
          for (int k = 0; k < (c.tile_x + 2 * radius) / 4; ++k)
            reinterpret_cast<float4*>(seg)[k] = reinterpret_cast<const float4*>(window + r * stride)[k];
        } else {
#pragma unroll
          for (int k = 0; k < c.tile_x + 2 * radius; ++k)
            seg[k] = window[r * stride + k];
        }
        @meta for (int v = 0; v < c.tile_y; ++v) {
          @meta if (r - v >= 0 && r - v < taps) {
#pragma unroll
            for (int j = 0; j < taps; ++j)
#pragma unroll
              for (int u = 0; u < c.tile_x; ++u)
                acc[v][u] += c_filter[(r - v) * taps + j] * seg[u + j];
          }
        }
      }

#pragma unroll
      for (int oy = 0; oy < c.tile_y; ++oy) {
        int gy = y0 + threadIdx.y * c.tile_y + oy;
#pragma unroll
        for (int ox = 0; ox < c.tile_x; ++ox) {
          int gx = x0 + threadIdx.x * c.tile_x + ox;
          if (gx < w && gy < h)
            out[size_t(gy) * w + gx] = acc[oy][ox];
        }
      }
    }
  }
}
}

struct conv_variant {
  const char* name;
  void (*kernel)(const float*, float*, int, int);
  // The kernels staged by metacu::dma take the image as an image_map.
  void (*mapped)(metacu::dma::image_map, float*, int, int);
  bool per_arch;
  conv_config config;
};

const conv_variant conv_variants[] = {
  @meta for (const variant& v : variants()) {
    {v.name, @(v.dma ? "nullptr, " + v.name : v.name + ", nullptr"), v.per_arch, v.config},
  }
};

// The CPU's value of output (x, y), in double.
static double reference(const std::vector<float>& img, const std::vector<float>& filter, int w,
                        int h, int x, int y) {
  double sum = 0.0;
  for (int i = 0; i < taps; ++i)
    for (int j = 0; j < taps; ++j) {
      int gx = x + j - radius, gy = y + i - radius;
      if (gx >= 0 && gx < w && gy >= 0 && gy < h)
        sum += double(filter[i * taps + j]) * img[size_t(gy) * w + gx];
    }
  return sum;
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

// The tuning problem (metacu/tune.h): the image, the filter and the CPU's
// values of the checked rows, made once; each candidate is launched with its
// own grid and checked against them. The check reads back the checked rows
// alone, into pinned memory: the whole image (64 MiB, through the driver's
// pageable staging) took most of each candidate's check, and more with two
// harnesses on one host (docs/distributed-tuning.md).
struct conv_problem {
  int w, h;
  std::vector<const conv_variant*> kernels;
  std::vector<int> rows;
  std::vector<double> ref;
  float *din = nullptr, *dout = nullptr;
  float* checked = nullptr; // pinned: the checked rows of the output

  explicit conv_problem(const std::vector<long long>& size)
      : w(size.size() == 2 ? int(size[0]) : 4096), h(size.size() == 2 ? int(size[1]) : 4096) {
    for (const conv_variant& v : conv_variants)
      if (std::strncmp(v.name, "convolution_tune_", 17) == 0)
        kernels.push_back(&v);
    std::vector<float> img(size_t(w) * h), filter(taps * taps);
    unsigned state = 2024u;
    auto uniform = [&] {
      state = state * 1664525u + 1013904223u;
      return float(state >> 8) / float(1u << 23) - 1.0f;
    };
    for (float& v : img)
      v = uniform();
    for (float& v : filter)
      v = uniform() / taps;
    METACU_CHECK(cudaMemcpyToSymbol(c_filter, filter.data(), filter.size() * sizeof(float)));
    for (int y = 0; y < h; ++y)
      if (y < 2 * radius || y >= h - 2 * radius || y % 37 == 0)
        rows.push_back(y);
    // The reference rows on every core: most of the setup, which the
    // first candidate waits for.
    ref.resize(rows.size() * w);
    std::vector<std::thread> pool;
    size_t threads = std::max(1u, std::min(std::thread::hardware_concurrency(), 16u));
    for (size_t t = 0; t < threads; ++t)
      pool.emplace_back([&, t] {
        for (size_t r = t; r < rows.size(); r += threads)
          for (int x = 0; x < w; ++x)
            ref[r * w + x] = reference(img, filter, w, h, x, rows[r]);
      });
    for (std::thread& t : pool)
      t.join();
    METACU_CHECK(cudaMallocHost(&checked, rows.size() * w * sizeof(float)));
    METACU_CHECK(cudaMalloc(&din, img.size() * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, img.size() * sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, img.data(), img.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  ~conv_problem() {
    cudaFreeHost(checked);
    cudaFree(din);
    cudaFree(dout);
  }
  size_t candidates() const { return kernels.size(); }
  void clear() { METACU_CHECK(cudaMemset(dout, 0xff, size_t(w) * h * sizeof(float))); } // NaN
  void launch(size_t i) {
    const conv_config& c = kernels[i]->config;
    dim3 block(c.block_x, c.block_y);
    dim3 grid((w + c.block_x * c.tile_x - 1) / (c.block_x * c.tile_x),
              (h + c.block_y * c.tile_y - 1) / (c.block_y * c.tile_y));
    kernels[i]->kernel<<<grid, block>>>(din, dout, w, h);
  }
  double error() {
    // One copy per run of consecutive checked rows.
    for (size_t r = 0; r < rows.size();) {
      size_t n = 1;
      while (r + n < rows.size() && rows[r + n] == rows[r] + int(n))
        ++n;
      METACU_CHECK(cudaMemcpyAsync(checked + r * w, dout + size_t(rows[r]) * w, n * w * sizeof(float),
                                   cudaMemcpyDeviceToHost));
      r += n;
    }
    METACU_CHECK(cudaStreamSynchronize(0));
    double max_err = 0.0;
    for (size_t k = 0; k < rows.size() * w; ++k) {
      double err = std::fabs(checked[k] - ref[k]);
      if (!(err <= max_err))
        max_err = std::isnan(err) ? INFINITY : err;
    }
    return max_err;
  }
};
METACU_TUNE_MAIN(conv_problem)
#else
int main(int argc, char** argv) {
  bool search = argc > 1 && std::strcmp(argv[1], "--search") == 0;
  int arg = search ? 2 : 1;
  int w = argc > arg + 1 ? std::atoi(argv[arg]) : 4096;
  int h = argc > arg + 1 ? std::atoi(argv[arg + 1]) : 4096;

  std::vector<float> img(size_t(w) * h), filter(taps * taps);
  unsigned state = 2024u;
  auto uniform = [&] { // in [-1, 1)
    state = state * 1664525u + 1013904223u;
    return float(state >> 8) / float(1u << 23) - 1.0f;
  };
  for (float& v : img)
    v = uniform();
  for (float& v : filter)
    v = uniform() / taps;
  METACU_CHECK(cudaMemcpyToSymbol(c_filter, filter.data(), filter.size() * sizeof(float)));

  // Rows checked against the CPU: the borders, and rows at every offset
  // within a tile across the image.
  std::vector<int> rows;
  for (int y = 0; y < h; ++y)
    if (y < 2 * radius || y >= h - 2 * radius || y % 37 == 0)
      rows.push_back(y);
  std::vector<double> ref(rows.size() * w);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int x = 0; x < w; ++x)
      ref[r * w + x] = reference(img, filter, w, h, x, rows[r]);

  float *din = nullptr, *dout = nullptr;
  METACU_CHECK(cudaMalloc(&din, img.size() * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dout, img.size() * sizeof(float)));
  METACU_CHECK(cudaMemcpy(din, img.data(), img.size() * sizeof(float), cudaMemcpyHostToDevice));

  const double flop = 2.0 * taps * taps * double(w) * h;
  std::map<std::string, double> gflops_of;
  int failures = 0;
  std::vector<float> out(img.size());
  for (const conv_variant& v : conv_variants) {
    bool candidate = std::strncmp(v.name, "conv_candidate", 14) == 0;
    if (candidate && !search)
      continue;
    conv_config c = v.config;
    std::string from = "fixed";
    if (v.per_arch) {
      int arch = v.mapped ? metacu::loaded_arch(v.mapped) : metacu::loaded_arch(v.kernel);
      c = metacu::select(conv_tuning, arch);
      from = "config for loaded image sm_" + std::to_string(arch);
    }
    dim3 block(c.block_x, c.block_y);
    dim3 grid((w + c.block_x * c.tile_x - 1) / (c.block_x * c.tile_x),
              (h + c.block_y * c.tile_y - 1) / (c.block_y * c.tile_y));
    // The image and the tensor map of this configuration's window.
    const metacu::dma::image_map src = metacu::dma::map_image(
        {din, w * 4, w * 4, h}, (c.block_x * c.tile_x + 2 * radius) * 4, c.block_y * c.tile_y + 2 * radius);
    auto launch = [&] {
      if (v.mapped)
        v.mapped<<<grid, block>>>(src, dout, w, h);
      else
        v.kernel<<<grid, block>>>(din, dout, w, h);
    };

    METACU_CHECK(cudaMemset(dout, 0xff, img.size() * sizeof(float))); // NaN
    launch();
    METACU_CHECK(cudaGetLastError());
    METACU_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double max_err = 0.0;
    for (size_t r = 0; r < rows.size(); ++r)
      for (int x = 0; x < w; ++x) {
        double err = std::fabs(out[size_t(rows[r]) * w + x] - ref[r * w + x]);
        if (!(err <= max_err)) // NaN, from an unwritten value, counts as infinite
          max_err = std::isnan(err) ? INFINITY : err;
      }
    bool ok = max_err <= 1e-4;
    failures += !ok;

    float ms = median_ms(launch);
    double gflops = flop / (ms * 1e6);
    gflops_of[v.name] = gflops;
    char shape[96];
    std::snprintf(shape, sizeof shape, "%dx%d threads, %dx%d tile, pad %d, %s", c.block_x,
                  c.block_y, c.tile_x, c.tile_y, c.pad, c.ldg ? "ldg" : "no ldg");
    std::printf("convolution: %-16s %dx%d (%s; %s): max error %.1e %s, %.3f ms, %.0f GFLOP/s\n",
                v.name, w, h, shape, from.c_str(), max_err, ok ? "ok" : "MISMATCH", ms, gflops);
    std::printf("row|convolution|%s (%s)|%.0f GFLOP/s|%s\n", v.name, shape, gflops,
                ok ? "matches CPU" : "MISMATCH");
  }
  const double tuned_vs_default = gflops_of["conv_tuned"] / gflops_of["conv_default"];
  std::printf("convolution: per-architecture config vs default: %.2fx\n", tuned_vs_default);
  std::printf("row|convolution|per-arch config vs default 16x16|%.2fx|\n", tuned_vs_default);
  // The same configurations staged by metacu::dma against by hand.
  for (const char* name : {"conv_tuned_dma", "conv_tuned_dma_rows", "conv_default_dma"}) {
    const std::string hand = std::string(name).substr(0, std::string(name).find("_dma"));
    const double ratio = gflops_of[name] / gflops_of[hand];
    std::printf("convolution: %s (staged by metacu::dma) vs %s (by hand): %.3fx\n", name, hand.c_str(),
                ratio);
    std::printf("row|convolution|%s vs %s: metacu::dma staging vs hand staging|%.3fx|\n", name,
                hand.c_str(), ratio);
  }
  METACU_CHECK(cudaFree(din));
  METACU_CHECK(cudaFree(dout));
  return failures ? 1 : 0;
}
#endif
