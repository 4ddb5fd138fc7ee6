// dma_gather: an embedding bag (a weighted sum of table rows picked by an
// index array), the gather staged into shared memory by metacu::dma's
// indirect copy, written three ways:
//   - dma:       each block gathers the rows of its next bags with one
//                indirect copy (dma.start(tile, table, idx)), double-buffered
//                with the two-phase form: the next rows are in flight while
//                the current bags are summed. Planned five times: the
//                library's own choice per architecture, then registers,
//                cp.async and bulk copies (one per row) forced (on
//                architectures that lack one the library's choice runs
//                instead), and registers with the whole tile's share of a
//                thread in flight (bytes_in_flight 128, not 64);
//   - hand:      the same gather staged by hand (16-byte loads by every
//                thread, then __syncthreads), one tile at a time;
//   - no shared: every thread reads its rows' values from global memory.
// For rows of 128, 256, 512 and 1024 bytes (32 to 256 floats), out of a
// 1 GiB table at random rows (much larger than the L2 cache, so the gather
// reads DRAM), 256 MiB gathered per launch. Table values
// and weights are small multiples of 1/4, so every sum is exact in float and
// each version is checked against the CPU bit for bit.
//
//   dma_gather
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/dma.cuh>
#include <metacu/runtime.h>

#include "../common/sample.h"

constexpr int threads = 128;
constexpr int bag = 16;                     // rows summed into one output row
constexpr int tile_bytes = 16384;           // rows gathered per copy: 16 KiB
constexpr int outputs = tile_bytes / bag / 4; // output values per tile
constexpr int tiles_per_block = 4;          // double-buffered in turn
constexpr size_t table_bytes = size_t(1) << 30;
constexpr size_t gathered_bytes = size_t(256) << 20;
constexpr int tiles = int(gathered_bytes / tile_bytes);
constexpr int blocks = tiles / tiles_per_block;

// The tile holds R = tile_bytes / (4 D) gathered rows of D floats: R / bag
// bags. Output j of the tile is column j % D of bag j / D: the weighted sum
// of the bag's rows, in order.
template <int D>
__device__ inline void sum_bags(const float* rows, const float* __restrict__ weight, float* __restrict__ out) {
#pragma unroll
  for (int i = 0; i < outputs / threads; ++i) {
    const int j = threadIdx.x + i * threads, b = j / D, d = j % D;
    float sum = 0.0f;
#pragma unroll
    for (int l = 0; l < bag; ++l)
      sum += weight[b * bag + l] * rows[(b * bag + l) * D + d];
    out[j] = sum;
  }
}

template <class Copier, int D>
__global__ void __launch_bounds__(threads)
    bag_dma(const float* table, const int* idx, const float* weight, float* out) {
  constexpr int R = tile_bytes / (D * 4);
  __shared__ alignas(128) float buf[2][R * D];
  __shared__ metacu::dma::barrier bar;
  Copier dma(bar);
  const size_t first = size_t(blockIdx.x) * tiles_per_block;
  dma.start(buf[0], table, idx + first * R);
  for (int t = 0; t < tiles_per_block; ++t) {
    dma.wait(); // tile t landed; the block is synchronized
    if (t + 1 < tiles_per_block)
      dma.start(buf[(t + 1) & 1], table, idx + (first + t + 1) * R);
    sum_bags<D>(buf[t & 1], weight + (first + t) * R, out + (first + t) * outputs);
  }
}

template <int D>
__global__ void __launch_bounds__(threads)
    bag_hand(const float* table, const int* idx, const float* weight, float* out) {
  constexpr int R = tile_bytes / (D * 4);
  __shared__ alignas(16) float4 buf[R * D / 4];
  const size_t first = size_t(blockIdx.x) * tiles_per_block;
  for (int t = 0; t < tiles_per_block; ++t) {
    const int* rows = idx + (first + t) * R;
#pragma unroll
    for (int i = 0; i < R * D / 4 / threads; ++i) {
      const int k = threadIdx.x + i * threads, row = k / (D / 4), col = k % (D / 4);
      buf[k] = reinterpret_cast<const float4*>(table + size_t(rows[row]) * D)[col];
    }
    __syncthreads();
    sum_bags<D>(reinterpret_cast<const float*>(buf), weight + (first + t) * R, out + (first + t) * outputs);
    __syncthreads();
  }
}

template <int D>
__global__ void __launch_bounds__(threads) bag_global(const float* __restrict__ table, const int* __restrict__ idx,
                                                      const float* __restrict__ weight, float* __restrict__ out) {
  constexpr int R = tile_bytes / (D * 4);
  const size_t first = size_t(blockIdx.x) * tiles_per_block;
  for (int t = 0; t < tiles_per_block; ++t) {
    const int* rows = idx + (first + t) * R;
    const float* w = weight + (first + t) * R;
#pragma unroll
    for (int i = 0; i < outputs / threads; ++i) {
      const int j = threadIdx.x + i * threads, b = j / D, d = j % D;
      float sum = 0.0f;
#pragma unroll
      for (int l = 0; l < bag; ++l)
        sum += w[b * bag + l] * table[size_t(rows[b * bag + l]) * D + d];
      out[(first + t) * outputs + j] = sum;
    }
  }
}

// The device buffers and, per row size, the indices, weights and the CPU's
// result.
struct problem {
  float *table, *weight, *out;
  int* idx;
  std::vector<float> host_table, expect;
  int row_floats;
};

static unsigned next(unsigned& state) {
  state = state * 1664525u + 1013904223u;
  return state >> 8;
}

// Random rows of the table for every gathered row, weights in 1/4 .. 2, and
// the bags' sums on the CPU in the kernels' order.
static void prepare(problem& p, int d) {
  const size_t rows = gathered_bytes / (d * 4), table_rows = table_bytes / (d * 4);
  std::vector<int> idx(rows);
  std::vector<float> weight(rows);
  unsigned state = 12345u + d;
  for (size_t r = 0; r < rows; ++r) {
    idx[r] = int(next(state) % table_rows);
    weight[r] = float(next(state) % 8 + 1) * 0.25f;
  }
  METACU_CHECK(cudaMemcpy(p.idx, idx.data(), rows * 4, cudaMemcpyHostToDevice));
  METACU_CHECK(cudaMemcpy(p.weight, weight.data(), rows * 4, cudaMemcpyHostToDevice));
  p.row_floats = d;
  p.expect.assign(size_t(tiles) * outputs, 0.0f);
  for (size_t b = 0; b < rows / bag; ++b)
    for (int c = 0; c < d; ++c) {
      float sum = 0.0f;
      for (int l = 0; l < bag; ++l)
        sum += weight[b * bag + l] * p.host_table[size_t(idx[b * bag + l]) * d + c];
      p.expect[b * d + c] = sum;
    }
}

// Times one version and checks its output bit for bit; false on a mismatch.
template <class Kernel> static bool check(const problem& p, const char* label, Kernel kernel) {
  const size_t out_bytes = p.expect.size() * 4;
  METACU_CHECK(cudaMemset(p.out, 0xff, out_bytes));
  const float ms = median_ms([&] { kernel<<<blocks, threads>>>(p.table, p.idx, p.weight, p.out); });
  std::vector<float> got(p.expect.size());
  METACU_CHECK(cudaMemcpy(got.data(), p.out, out_bytes, cudaMemcpyDeviceToHost));
  size_t wrong = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (std::memcmp(&got[i], &p.expect[i], 4) != 0 && wrong++ == 0)
      std::printf("dma_gather: %s: first wrong value at %zu: %g, expected %g\n", label, i, got[i], p.expect[i]);
  // Bytes moved: the gathered rows, one index and one weight per row, the
  // output.
  const size_t rows = gathered_bytes / (p.row_floats * 4);
  const double bytes = double(gathered_bytes) + 8.0 * rows + double(out_bytes);
  std::printf("row|dma_gather|%d-byte rows, %s|%.3f ms|%.0f GB/s|%s\n", p.row_floats * 4, label, ms,
              bytes / (ms * 1e6), wrong ? "WRONG" : "exact");
  return wrong == 0;
}

// The mechanism a copier takes in the image that runs (the PTX's
// architecture: a compute_80 image JIT-compiled for an sm_90 GPU runs its
// sm_80 code).
template <class Copier> static const char* mechanism_run(int ptx) {
  return metacu::dma::name(ptx >= 90 ? Copier::M2 : ptx >= 80 ? Copier::M1 : Copier::M0);
}

int main() {
  problem p;
  p.host_table.resize(table_bytes / 4);
  for (size_t i = 0; i < p.host_table.size(); ++i)
    p.host_table[i] = float(int((i * 2654435761ull >> 16) % 33) - 16) * 0.25f;
  const size_t max_rows = gathered_bytes / (32 * 4);
  METACU_CHECK(cudaMalloc(&p.table, table_bytes));
  METACU_CHECK(cudaMalloc(&p.idx, max_rows * 4));
  METACU_CHECK(cudaMalloc(&p.weight, max_rows * 4));
  METACU_CHECK(cudaMalloc(&p.out, size_t(tiles) * outputs * 4));
  METACU_CHECK(cudaMemcpy(p.table, p.host_table.data(), table_bytes, cudaMemcpyHostToDevice));

  cudaFuncAttributes attr;
  METACU_CHECK(cudaFuncGetAttributes(&attr, bag_global<32>));
  const int ptx = attr.ptxVersion;
  std::printf("dma_gather: bags of %d rows, %zu MiB gathered per launch from a %zu MiB table, compute capability "
              "%d, image compute_%d\n",
              bag, gathered_bytes >> 20, table_bytes >> 20, device_compute_capability(), ptx);
  std::printf("row|dma_gather|version|ms|GB/s (rows + indices + weights + output)|result\n");

  bool ok = true;
  @meta const char* labels[] = {"library's choice", "registers (forced)", "cp.async (forced)", "bulk (forced)",
                                 "registers (forced), 128 bytes in flight"};
  @meta for (int d : {32, 64, 128, 256}) {
    prepare(p, @(d));
    @meta for (int m = 0; m < 5; ++m) {
      @meta auto gather = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = d * 4,
                                             .rows = tile_bytes / (d * 4), .align = 16, .threads = threads,
                                             .bytes_in_flight = m == 4 ? 128 : 64,
                                             .force = metacu::dma::mechanism(m == 4 ? 1 : m)});
      {
        using copier_t = @(gather.type());
        @meta if (m == 0 && d == 128) {
          @meta gather.diagnose();
          copier_t::diagnose(stdout, {75, 80, 90});
        }
        const std::string label = std::string(@(std::string("\"") + labels[m] + "\"")) + ", " +
                                  mechanism_run<copier_t>(ptx);
        ok &= check(p, label.c_str(), bag_dma<copier_t, @(d)>);
      }
    }
    ok &= check(p, "staged by hand", bag_hand<@(d)>);
    ok &= check(p, "no shared memory", bag_global<@(d)>);
  }
  METACU_CHECK(cudaFree(p.table));
  METACU_CHECK(cudaFree(p.idx));
  METACU_CHECK(cudaFree(p.weight));
  METACU_CHECK(cudaFree(p.out));
  std::printf(ok ? "dma_gather: all versions match the CPU\n" : "dma_gather: MISMATCH\n");
  return ok ? 0 : 1;
}
