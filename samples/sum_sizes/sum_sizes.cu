// sum_sizes: a sum of n unsigned integers tuned per problem size.
//
// Each thread adds `per_thread` values (loads a block apart, so a warp's are
// coalesced), the block adds its threads' sums with warp shuffles and one
// atomicAdd. How many values a thread and a block should take may depend
// on n (blocks enough to fill the GPU against the cost of each block's
// reduction and atomic); on an H100 the best moved with n, but by no more
// than the timer's noise: a memory-bound sum is mostly launch latency and
// bandwidth at these sizes (docs/tune.md; samples/matmul_sizes is the
// kernel whose choice matters). The space below declares problem sizes,
// `metacu tune` times every candidate at
// each and writes an entry per architecture and size into
// sum_sizes.tuning.json ("sm_90@1048576"), and this file generates one
// kernel per tuned size (each architecture's branch reads its entry nearest
// that size) and the host's table of them, from which the program picks by
// the loaded image's architecture and n (metacu::select(table, arch, {n}):
// the entry tuned nearest n in ratio; docs/tune.md). No NVRTC, no Python.
//
//   sum_sizes [n...]    (default: every tuned size and the sizes between)
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

#include "../common/sample.h"

@meta metacu::json tuning = metacu::load_json("sum_sizes.tuning.json");

@meta metacu::tune_space space =
    metacu::tune_space("sum_sizes")
        .param("block", {64, 128, 256, 512, 1024})
        .param("per_thread", {1, 2, 4, 8, 16, 32})
        .sizes({{1 << 16}, {1 << 17}, {1 << 18}, {1 << 19}, {1 << 20}, {1 << 21}, {1 << 22}, {1 << 23},
                {1 << 24}})
        .metric("GB/s", [](const std::vector<long long>& size) { return 4.0 * size[0] / 1e9; },
                metacu::tune_direction::maximize)
        .tolerance(0);

// The block's sum of its block * per_thread values from x, added to *out.
template <int Block, int PerThread>
__device__ __forceinline__ void block_sum(const unsigned* x, unsigned* out, long long n) {
  long long base = (long long)blockIdx.x * Block * PerThread + threadIdx.x;
  unsigned acc = 0;
#pragma unroll
  for (int k = 0; k < PerThread; ++k) {
    long long i = base + (long long)k * Block;
    if (i < n)
      acc += x[i];
  }
#pragma unroll
  for (int d = 16; d > 0; d /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, d);
  __shared__ unsigned warp_sums[Block / 32];
  if (threadIdx.x % 32 == 0)
    warp_sums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < Block / 32 ? warp_sums[threadIdx.x] : 0u;
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
      acc += __shfl_down_sync(0xffffffffu, acc, d);
    if (threadIdx.x == 0)
      atomicAdd(out, acc);
  }
}

struct sum_variant {
  void (*kernel)(const unsigned*, unsigned*, long long);
  int block, per_thread;
  const char* entry; // the tuning file's entry it was generated from
};

// Under `metacu tune`: one kernel per candidate, and nothing else.
@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(const unsigned* x, unsigned* out, long long n) {
  block_sum<@(c.params["block"].as_int()), @(c.params["per_thread"].as_int())>(x, out, n);
}
}

#ifndef METACU_TUNE
// One kernel per size the tuning file has an entry for; each
// architecture's branch builds the configuration of its entry nearest that
// size (an architecture with one entry for every size builds that one).
@meta std::vector<std::vector<long long>> tuned = metacu::kernel_sizes(tuning);

@meta for (size_t k = 0; k < tuned.size(); ++k) {
__global__ void @("sum_" + std::to_string(k))(const unsigned* x, unsigned* out, long long n) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = metacu::tuned_params(tuning, arch, tuned[k]);
      block_sum<@(p["block"].as_int()), @(p["per_thread"].as_int())>(x, out, n);
    }
  }
}
}

// The kernel generated for an entry's size (any, for an entry of every size).
@meta std::string kernel_for(const std::vector<long long>& size) {
  for (size_t k = 0; k < tuned.size(); ++k)
    if (tuned[k] == size)
      return "sum_" + std::to_string(k);
  return "sum_0";
}

// The host's table: per architecture, its entries by size.
const std::map<int, std::vector<metacu::sized<sum_variant>>> sum_table = {
  @meta for (const auto& [arch, entries] : metacu::tuning_entries(tuning)) {
  {@(arch), {
    @meta for (const metacu::tuning_entry& e : entries) {
    {{@(e.size.empty() ? 1ll : e.size[0])}, {@(kernel_for(e.size)), @(e.params["block"].as_int()), @(e.params["per_thread"].as_int()), e.key}},
    }
  }},
  }
};

static unsigned sum_on_gpu(const sum_variant& v, const unsigned* x, unsigned* out, long long n) {
  long long per_block = (long long)v.block * v.per_thread;
  METACU_CHECK(cudaMemset(out, 0, sizeof(unsigned)));
  v.kernel<<<(unsigned)((n + per_block - 1) / per_block), v.block>>>(x, out, n);
  METACU_CHECK(cudaGetLastError());
  unsigned result = 0;
  METACU_CHECK(cudaMemcpy(&result, out, sizeof result, cudaMemcpyDeviceToHost));
  return result;
}

int main(int argc, char** argv) {
  std::vector<long long> sizes;
  for (int i = 1; i < argc; ++i)
    sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty())
    for (long long n = 1 << 16; n <= 1 << 24; n *= 2)
      sizes.insert(sizes.end(), {n, n + n / 2});
  long long largest = 0;
  for (long long n : sizes)
    largest = std::max(largest, n);
  std::vector<unsigned> host(largest);
  for (long long i = 0; i < largest; ++i)
    host[i] = (unsigned)(i * 2654435761u >> 7);
  unsigned *x = nullptr, *out = nullptr;
  METACU_CHECK(cudaMalloc(&x, largest * sizeof(unsigned)));
  METACU_CHECK(cudaMalloc(&out, sizeof(unsigned)));
  METACU_CHECK(cudaMemcpy(x, host.data(), largest * sizeof(unsigned), cudaMemcpyHostToDevice));

  // Every kernel is one image of this binary; the first tells which.
  int arch = metacu::loaded_arch(sum_table.begin()->second.front().value.kernel);
  std::printf("device sm_%d, loaded image sm_%d\n", device_compute_capability(), arch);
  const std::vector<metacu::sized<sum_variant>>& entries = metacu::select(sum_table, arch);
  bool ok = true;
  for (long long n : sizes) {
    unsigned expected = 0;
    for (long long i = 0; i < n; ++i)
      expected += host[i];
    const sum_variant& chosen = metacu::select(sum_table, arch, {n});
    // Every entry of this architecture at this n, to show what the choice
    // is worth against the other sizes' entries.
    float best_other = 0;
    float chosen_gbs = 0;
    for (const metacu::sized<sum_variant>& e : entries) {
      if (sum_on_gpu(e.value, x, out, n) != expected) {
        std::printf("n=%lld: %s gives a wrong sum\n", n, e.value.entry);
        ok = false;
      }
      float ms = median_ms([&] {
        long long per_block = (long long)e.value.block * e.value.per_thread;
        e.value.kernel<<<(unsigned)((n + per_block - 1) / per_block), e.value.block>>>(x, out, n);
      });
      float gbs = 4.0f * n / (ms * 1e6f);
      if (&e.value == &chosen)
        chosen_gbs = gbs;
      else
        best_other = std::max(best_other, gbs);
    }
    std::printf("n=%-9lld entry %-15s (block %4d, %2d a thread) %7.1f GB/s", n, chosen.entry, chosen.block,
                chosen.per_thread, chosen_gbs);
    if (entries.size() > 1)
      std::printf("; the best other entry %7.1f GB/s", best_other);
    std::printf("\n");
  }
  METACU_CHECK(cudaFree(x));
  METACU_CHECK(cudaFree(out));
  std::printf("%s\n", ok ? "all sums correct" : "WRONG SUMS");
  return ok ? 0 : 1;
}
#else
#include <metacu/tune.h>
const sum_variant candidates[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {@(c.name), @(c.params["block"].as_int()), @(c.params["per_thread"].as_int()), c.name},
  }
};

struct sum_problem {
  long long n;
  unsigned *x = nullptr, *out = nullptr;
  unsigned expected = 0;
  explicit sum_problem(const std::vector<long long>& size) : n(size.at(0)) {
    std::vector<unsigned> host(n);
    for (long long i = 0; i < n; ++i)
      expected += host[i] = (unsigned)(i * 2654435761u >> 7);
    METACU_CHECK(cudaMalloc(&x, n * sizeof(unsigned)));
    METACU_CHECK(cudaMalloc(&out, sizeof(unsigned)));
    METACU_CHECK(cudaMemcpy(x, host.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof ::candidates / sizeof ::candidates[0]; }
  void clear() { METACU_CHECK(cudaMemset(out, 0, sizeof(unsigned))); }
  void launch(size_t i) {
    const sum_variant& v = ::candidates[i];
    long long per_block = (long long)v.block * v.per_thread;
    v.kernel<<<(unsigned)((n + per_block - 1) / per_block), v.block>>>(x, out, n);
  }
  double error() {
    unsigned got = 0;
    METACU_CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
    return got == expected ? 0 : 1;
  }
};
METACU_TUNE_MAIN(sum_problem)
#endif
