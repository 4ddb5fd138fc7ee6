// matmul_sizes: Kernel Tuner's tiled matrix multiply (C = A * B, n x n
// floats; scripts/kt/matmul.cu) tuned per problem size.
//
// A block computes a (block_size_x * tile_size_x) x (block_size_y *
// tile_size_y) tile of C. Large tiles reuse more of what a block stages in
// shared memory, but a small matrix cut into large tiles leaves most of the
// GPU's SMs without a block: at n = 256 a 128 x 64 tile makes 8 blocks for
// 132 SMs. So the best tile moves with n, and the space declares the sizes
// to tune at; the tuning file gets an entry per architecture and size
// ("sm_90@1024"), this file one kernel per tuned size, and the program
// picks by the loaded image's architecture and n (metacu::select(table,
// arch, {n}): the entry tuned nearest n in ratio; docs/tune.md).
//
//   matmul_sizes [n...]    (multiples of 256; default 256 to 4096)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

#include "../common/sample.h"

@meta metacu::json tuning = metacu::load_json("matmul_sizes.tuning.json");

// Kernel Tuner's space, tiles at most 256 wide so that they divide every n
// that is a multiple of 256.
@meta metacu::tune_space space =
    metacu::tune_space("matmul_sizes")
        .param("block_size_x", {16, 32, 64})
        .param("block_size_y", {1, 2, 4, 8, 16, 32})
        .param("tile_size_x", {1, 2, 4, 8})
        .param("tile_size_y", {1, 2, 4, 8})
        .require([](const metacu::json& p) {
          return p["block_size_x"].as_int() == p["block_size_y"].as_int() * p["tile_size_y"].as_int() &&
                 p["block_size_x"].as_int() * p["tile_size_x"].as_int() <= 256;
        })
        .sizes({{256}, {512}, {1024}, {2048}, {4096}})
        .metric("GFLOP/s", [](const std::vector<long long>& s) { return 2.0 * s[0] * s[0] * s[0] / 1e9; },
                metacu::tune_direction::maximize)
        .tolerance(1e-2);

// C = A * B for n a multiple of the tile.
template <int BX, int BY, int TX, int TY>
__device__ __forceinline__ void matmul_tile(float* C, const float* A, const float* B, int n) {
  __shared__ float sA[BY * TY][BX];
  __shared__ float sB[BY * TY][BX * TX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX * TX + tx;
  const int y = blockIdx.y * BY * TY + ty;
  float sum[TY][TX] = {};
  for (int k = 0; k < n; k += BX) {
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TY; i++) {
      sA[ty + BY * i][tx] = A[(y + i * BY) * n + k + tx];
#pragma unroll
      for (int j = 0; j < TX; j++)
        sB[ty + BY * i][tx + j * BX] = B[(k + ty + BY * i) * n + x + j * BX];
    }
    __syncthreads();
#pragma unroll
    for (int kb = 0; kb < BX; kb++)
#pragma unroll
      for (int i = 0; i < TY; i++)
#pragma unroll
        for (int j = 0; j < TX; j++)
          sum[i][j] += sA[ty + BY * i][kb] * sB[kb][tx + j * BX];
  }
#pragma unroll
  for (int i = 0; i < TY; i++)
#pragma unroll
    for (int j = 0; j < TX; j++)
      C[(y + BY * i) * n + x + j * BX] = sum[i][j];
}

struct matmul_variant {
  void (*kernel)(float*, const float*, const float*, int);
  int bx, by, tx, ty;
  const char* entry; // the tuning file's entry, or the candidate
};

static void launch(const matmul_variant& v, float* C, const float* A, const float* B, int n) {
  v.kernel<<<dim3(n / (v.bx * v.tx), n / (v.by * v.ty)), dim3(v.bx, v.by)>>>(C, A, B, n);
}

// Under `metacu tune`: one kernel per candidate, and nothing else.
@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* C, const float* A, const float* B, int n) {
  matmul_tile<@(c.params["block_size_x"].as_int()), @(c.params["block_size_y"].as_int()),
              @(c.params["tile_size_x"].as_int()), @(c.params["tile_size_y"].as_int())>(C, A, B, n);
}
}

// The same inputs for the harness and the program.
static void fill(std::vector<float>& v, unsigned state) {
  for (float& x : v) {
    state = state * 1664525u + 1013904223u;
    x = float(state >> 8) / float(1u << 23) - 1.0f;
  }
}

// The largest error of C against the CPU's product in double, on 16 rows.
static double error_of(const std::vector<float>& c, const std::vector<float>& a, const std::vector<float>& b,
                       int n) {
  double e = 0;
  for (int y = 0; y < n; y += n / 16)
    for (int x = 0; x < n; ++x) {
      double s = 0;
      for (int k = 0; k < n; ++k)
        s += double(a[size_t(y) * n + k]) * b[size_t(k) * n + x];
      double d = std::fabs(c[size_t(y) * n + x] - s);
      if (!(d <= e))
        e = std::isnan(d) ? INFINITY : d;
    }
  return e;
}

#ifndef METACU_TUNE
// One kernel per size the tuning file has an entry for; each
// architecture's branch builds its entry nearest that size (an
// architecture with one entry for every size builds that one).
@meta std::vector<std::vector<long long>> tuned = metacu::kernel_sizes(tuning);

@meta for (size_t k = 0; k < tuned.size(); ++k) {
__global__ void @("matmul_" + std::to_string(k))(float* C, const float* A, const float* B, int n) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = metacu::tuned_params(tuning, arch, tuned[k]);
      matmul_tile<@(p["block_size_x"].as_int()), @(p["block_size_y"].as_int()), @(p["tile_size_x"].as_int()),
                  @(p["tile_size_y"].as_int())>(C, A, B, n);
    }
  }
}
}

// The kernel generated for an entry's size (any, for an entry of every size).
@meta std::string kernel_for(const std::vector<long long>& size) {
  for (size_t k = 0; k < tuned.size(); ++k)
    if (tuned[k] == size)
      return "matmul_" + std::to_string(k);
  return "matmul_0";
}

// The host's table: per architecture, its entries by size.
const std::map<int, std::vector<metacu::sized<matmul_variant>>> matmul_table = {
  @meta for (const auto& [arch, entries] : metacu::tuning_entries(tuning)) {
  {@(arch), {
    @meta for (const metacu::tuning_entry& e : entries) {
    {{@(e.size.empty() ? 1ll : e.size[0])},
     {@(kernel_for(e.size)), @(e.params["block_size_x"].as_int()), @(e.params["block_size_y"].as_int()),
      @(e.params["tile_size_x"].as_int()), @(e.params["tile_size_y"].as_int()), e.key}},
    }
  }},
  }
};

int main(int argc, char** argv) {
  std::vector<int> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(std::atoi(argv[i]));
  if (sizes.empty())
    sizes = {256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096};
  int largest = 0;
  for (int n : sizes) {
    if (n <= 0 || n % 256) {
      std::fprintf(stderr, "matmul_sizes: n must be a positive multiple of 256, not %d\n", n);
      return 2;
    }
    largest = std::max(largest, n);
  }
  std::vector<float> a(size_t(largest) * largest), b(a.size()), c(a.size());
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  for (float** p : {&da, &db, &dc})
    METACU_CHECK(cudaMalloc(p, a.size() * sizeof(float)));

  // Every kernel is one image of this binary; the first tells which.
  int arch = metacu::loaded_arch(matmul_table.begin()->second.front().value.kernel);
  std::printf("device sm_%d, loaded image sm_%d\n", device_compute_capability(), arch);
  const std::vector<metacu::sized<matmul_variant>>& entries = metacu::select(matmul_table, arch);
  bool ok = true;
  for (int n : sizes) {
    a.resize(size_t(n) * n);
    b.resize(a.size());
    c.resize(a.size());
    fill(a, 2024u);
    fill(b, 4048u);
    METACU_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
    const matmul_variant& chosen = metacu::select(matmul_table, arch, {n});
    // Every entry of this architecture at this n: what the choice is worth
    // against the entries of the other sizes.
    float chosen_rate = 0, best_other = 0;
    std::string best_other_entry = "-";
    for (const metacu::sized<matmul_variant>& e : entries) {
      METACU_CHECK(cudaMemset(dc, 0xff, c.size() * sizeof(float)));
      launch(e.value, dc, da, db, n);
      METACU_CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
      if (double err = error_of(c, a, b, n); !(err <= 1e-2)) {
        std::printf("n=%d: %s is wrong (error %g)\n", n, e.value.entry, err);
        ok = false;
      }
      float ms = median_ms([&] { launch(e.value, dc, da, db, n); }, 2, 7);
      float rate = 2.0f * n * n * float(n) / (ms * 1e6f);
      if (&e.value == &chosen)
        chosen_rate = rate;
      else if (rate > best_other) {
        best_other = rate;
        best_other_entry = e.value.entry;
      }
    }
    std::printf("n=%-5d entry %-12s (%2dx%-2d threads, %dx%d tile) %8.0f GFLOP/s; best other entry %8.0f GFLOP/s (%s)\n",
                n, chosen.entry, chosen.bx, chosen.by, chosen.tx, chosen.ty, chosen_rate, best_other,
                best_other_entry.c_str());
  }
  for (float* p : {da, db, dc})
    METACU_CHECK(cudaFree(p));
  std::printf("%s\n", ok ? "all products correct" : "WRONG PRODUCTS");
  return ok ? 0 : 1;
}
#else
#include <metacu/tune.h>
const matmul_variant candidates[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {@(c.name), @(c.params["block_size_x"].as_int()), @(c.params["block_size_y"].as_int()),
     @(c.params["tile_size_x"].as_int()), @(c.params["tile_size_y"].as_int()), c.name},
  }
};

struct matmul_problem {
  int n;
  std::vector<float> a, b, c;
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  explicit matmul_problem(const std::vector<long long>& size)
      : n(int(size.at(0))), a(size_t(n) * n), b(a.size()), c(a.size()) {
    fill(a, 2024u);
    fill(b, 4048u);
    for (float** p : {&da, &db, &dc})
      METACU_CHECK(cudaMalloc(p, a.size() * sizeof(float)));
    METACU_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof ::candidates / sizeof ::candidates[0]; }
  void clear() { METACU_CHECK(cudaMemset(dc, 0xff, c.size() * sizeof(float))); } // NaN
  void launch(size_t i) { ::launch(::candidates[i], dc, da, db, n); }
  double error() {
    METACU_CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return error_of(c, a, b, n);
  }
};
METACU_TUNE_MAIN(matmul_problem)
#endif
