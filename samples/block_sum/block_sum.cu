// block_sum: the sum of n unsigned ints (exact, modulo 2^32) with its tile
// per architecture from block_sum.tuning.json, and a tuning space for
// `metacu tune`.
//
// Each block sums one full tile, threads x values per thread x vector width
// unsigned ints, and writes one partial sum; a one-block kernel then sums the
// partials. One call, metacu::tuned_kernels, gives meta code each
// architecture's tile from the tuning file (compile-time constants, so the
// loads are unrolled and all issued before the first add, and the shuffle
// tree is unrolled) and the host the same tiles, keyed on
// metacu::loaded_arch (the image the driver loaded), to size the grid.
//
// A block sum is the canonical memory-bound kernel: 4 bytes read per add and
// nothing written but one value per block. What decides its speed is what
// decides axpy's (how many bytes each block reads, against the bounded rate
// at which the GPU starts blocks; how many loads each SM keeps in flight
// against the DRAM latency, threads x values per thread x vector width; how
// long the last blocks take to drain) plus the end of each block, which
// axpy does not have: a shuffle tree, a __syncthreads and a second tree in
// one warp, during which the block issues no loads. Bigger tiles spread that
// cost over more bytes. `metacu tune block_sum.cu --arch 90` searches those
// (the space below); it has no cache-hint flag, whose cost depends on the
// kernel more than the model can say (docs/report.md).
//
//   block_sum [n]    (default 2^26 values)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>
#include <metacu/tuned.h>

#include "../common/sample.h"

// What `metacu tune` searches. The problem size is a multiple of every
// candidate's tile (threads x items x vec: 3 x 2^24 is a multiple of
// 1024 x 16 x 4 and of 3 x 32), so every block sums a full tile.
constexpr size_t problem_n = size_t(3) << 24;
@meta metacu::tune_space space =
    metacu::tune_space("block_sum")
        .param("block_size_x", {32, 64, 128, 256, 512, 1024})
        .param("items_per_thread", {1, 2, 3, 4, 6, 8, 12, 16})
        .param("vector_width", {1, 2, 4})
        .launch([](const metacu::json& p) { // one block per tile, as main launches it
          long long tile = p["block_size_x"].as_int() * p["items_per_thread"].as_int() *
                           p["vector_width"].as_int();
          return metacu::tune_launch{{p["block_size_x"].as_int()},
                                     {(long long)problem_n / tile}};
        })
        .problem_size({(long long)problem_n})
        .metric("GB/s", 4.0 * problem_n / 1e9, metacu::tune_direction::maximize)
        .tolerance(0); // the sum is exact

// The kernel: one, named block_sum, whose tile for each architecture is the
// tuning file's entry (its sm_75, sm_80 and sm_90 entries are starting
// points, not measured optima: about 8 to 16 values in flight per thread,
// wider loads where the tile stays the same size), or under `metacu tune`
// one per candidate it measures.
@meta metacu::tuned_kernels kernels(space, "block_sum.tuning.json",
    metacu::params({{"block_size_x", 512}, {"items_per_thread", 4}, {"vector_width", 4}}));

@meta struct block_sum_config {
  int threads; // threads per block: a multiple of 32, at most 1024
  int items;   // vectors per thread
  int vec;     // unsigned ints per load: 1, 2 (uint2) or 4 (uint4)
};

__device__ __forceinline__ unsigned lanes_sum(unsigned v) { return v; }
__device__ __forceinline__ unsigned lanes_sum(uint2 v) { return v.x + v.y; }
__device__ __forceinline__ unsigned lanes_sum(uint4 v) { return (v.x + v.y) + (v.z + v.w); }

// One full tile per block, so no loop and no bounds check: each block sums
// cfg.threads * cfg.items vectors into out[blockIdx.x]. Every load is issued
// before the first add (cfg.items independent loads in flight per thread),
// and a warp's i-th loads cover consecutive vectors (coalesced). Then a
// shuffle tree per warp, the warps' sums through shared memory, and a
// shuffle tree over them in the first warp (a block of one warp needs
// neither).
@meta for (const metacu::tuned_kernel& k : kernels) {
__global__ void @(k.name)(const unsigned* __restrict__ in, unsigned* __restrict__ out) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = k.params(arch);
      @meta block_sum_config cfg{p["block_size_x"].as_int(), p["items_per_thread"].as_int(),
                                 p["vector_width"].as_int()};
      @meta std::string type = cfg.vec == 1 ? "unsigned" : "uint" + std::to_string(cfg.vec);
      @meta int warps = cfg.threads / 32;
      using vec_t = @(type);
      const vec_t* inv = reinterpret_cast<const vec_t*>(in);
      size_t base = size_t(blockIdx.x) * @(cfg.threads * cfg.items) + threadIdx.x;
      vec_t vs[cfg.items];
      @meta for (int i = 0; i < cfg.items; ++i)
        vs[i] = inv[base + @(i * cfg.threads)];
      unsigned acc = 0;
      @meta for (int i = 0; i < cfg.items; ++i)
        acc += lanes_sum(vs[i]);
      @meta for (int offset = 16; offset > 0; offset /= 2)
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
      @meta if (warps > 1) {
        __shared__ unsigned warp_sums[warps];
        if (threadIdx.x % 32 == 0)
          warp_sums[threadIdx.x / 32] = acc;
        __syncthreads();
        if (threadIdx.x < 32) {
          acc = threadIdx.x < @(warps) ? warp_sums[threadIdx.x] : 0u;
          // warps is a power of two: lanes up to warps - 1 hold the sums.
          @meta for (int offset = warps / 2; offset > 0; offset /= 2)
            acc += __shfl_down_sync(0xffffffffu, acc, offset);
          if (threadIdx.x == 0)
            out[blockIdx.x] = acc;
        }
      } else {
        if (threadIdx.x == 0)
          out[blockIdx.x] = acc;
      }
    }
  }
}
}

// The sum of n values by one block of sum_threads threads into *out: the
// values after the last full tile, and the second pass over the partials.
constexpr int sum_threads = 256;
__global__ void __launch_bounds__(sum_threads) block_sum_one_block(const unsigned* __restrict__ in,
                                                                   unsigned* __restrict__ out,
                                                                   size_t n) {
  unsigned acc = 0;
  for (size_t i = threadIdx.x; i < n; i += sum_threads)
    acc += in[i];
  @meta for (int offset = 16; offset > 0; offset /= 2)
    acc += __shfl_down_sync(0xffffffffu, acc, offset);
  __shared__ unsigned warp_sums[sum_threads / 32];
  if (threadIdx.x % 32 == 0)
    warp_sums[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < sum_threads / 32 ? warp_sums[threadIdx.x] : 0u;
    @meta for (int offset = sum_threads / 64; offset > 0; offset /= 2)
      acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (threadIdx.x == 0)
      *out = acc;
  }
}

// The kernels and their tiles on the host: the one kernel with the tile of
// the image the GPU loaded, or a tuning build's candidates.
const metacu::tuned_table<void(const unsigned*, unsigned*)> block_sum_kernels =
    @(kernels.host_table());

// Values a block of kernel i of block_sum_kernels sums, and its threads.
static size_t tile_of(size_t i) {
  const metacu::tuned_config& c = block_sum_kernels.config(i);
  return size_t(c["block_size_x"] * c["items_per_thread"] * c["vector_width"]);
}
static unsigned threads_of(size_t i) { return unsigned(block_sum_kernels.config(i)["block_size_x"]); }

// The partial sums of n values in partials with kernel i of
// block_sum_kernels: one per full tile, then one for the values after them.
// Returns how many it writes.
static size_t launch_tiles(size_t i, const unsigned* in, unsigned* partials, size_t n) {
  size_t per_block = tile_of(i);
  size_t full = n / per_block;
  if (full > 0)
    block_sum_kernels.kernel(i)<<<unsigned(full), threads_of(i)>>>(in, partials);
  size_t rest = n - full * per_block;
  if (rest > 0)
    block_sum_one_block<<<1, sum_threads>>>(in + full * per_block, partials + full, rest);
  return full + (rest > 0);
}

// The input, the same in the program and the tuning problem: large enough
// values that the sum wraps around 2^32 many times.
static std::vector<unsigned> make_input(size_t n) {
  std::vector<unsigned> v(n);
  unsigned state = 12345u;
  for (unsigned& x : v) {
    state = state * 1664525u + 1013904223u;
    x = state >> 4;
  }
  return v;
}

// The CPU's sum, modulo 2^32 as the GPU's.
static unsigned cpu_sum(const unsigned* v, size_t n) {
  unsigned s = 0;
  for (size_t i = 0; i < n; ++i)
    s += v[i];
  return s;
}

#ifdef METACU_TUNE
// The tuning problem (metacu/tune.h): the input made once; a timed run is
// the tile kernel alone (what `metacu report` predicts), one partial sum per
// tile; the check adds the partials on the CPU. A size that is not a
// multiple of the candidate's tile leaves values unsummed and fails it.
struct block_sum_problem {
  size_t n;
  unsigned expected;
  std::vector<unsigned> partials;
  unsigned *din = nullptr, *dpartials = nullptr;
  size_t tiles = 0; // the last launch's

  explicit block_sum_problem(const std::vector<long long>& size) : n(size_t(size.at(0))) {
    std::vector<unsigned> data = make_input(n);
    expected = cpu_sum(data.data(), n);
    METACU_CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    METACU_CHECK(cudaMalloc(&dpartials, (n / 32 + 1) * sizeof(unsigned))); // tiles of 32 at least
    METACU_CHECK(cudaMemcpy(din, data.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return block_sum_kernels.size(); }
  void clear() {
    METACU_CHECK(cudaMemset(dpartials, 0xff, (n / 32 + 1) * sizeof(unsigned)));
  }
  void launch(size_t i) {
    tiles = n / tile_of(i);
    if (tiles > 0)
      block_sum_kernels.kernel(i)<<<unsigned(tiles), threads_of(i)>>>(din, dpartials);
  }
  double error() {
    partials.resize(tiles);
    METACU_CHECK(cudaMemcpy(partials.data(), dpartials, tiles * sizeof(unsigned),
                            cudaMemcpyDeviceToHost));
    return cpu_sum(partials.data(), tiles) == expected ? 0.0 : 1.0;
  }
};
METACU_TUNE_MAIN(block_sum_problem)
#else
// The sum of the n values at din by the per-architecture kernel, then one
// block over the partials, into *dresult.
static void device_sum(const unsigned* din, unsigned* dpartials, unsigned* dresult, size_t n) {
  size_t count = launch_tiles(0, din, dpartials, n);
  block_sum_one_block<<<1, sum_threads>>>(dpartials, dresult, count);
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t(1) << 26);
  std::vector<unsigned> data = make_input(n);
  unsigned expected = cpu_sum(data.data(), n);
  unsigned *din = nullptr, *dpartials = nullptr, *dresult = nullptr, *dcopy = nullptr;
  METACU_CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  METACU_CHECK(cudaMalloc(&dcopy, n * sizeof(unsigned)));
  METACU_CHECK(cudaMalloc(&dpartials, (n / 32 + 1) * sizeof(unsigned))); // tiles of 32 at least
  METACU_CHECK(cudaMalloc(&dresult, sizeof(unsigned)));
  METACU_CHECK(cudaMemcpy(din, data.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  // The configuration of the image that runs (not the one the device's
  // compute capability would name: samples/axpy shows the difference).
  int arch = metacu::loaded_arch(block_sum_kernels.kernel());
  int cc = device_compute_capability();
  const metacu::tuned_config& p = block_sum_kernels.config();
  struct {
    int threads, items, vec;
  } cfg = {int(p["block_size_x"]), int(p["items_per_thread"]), int(p["vector_width"])};
  device_sum(din, dpartials, dresult, n);
  METACU_CHECK(cudaGetLastError());
  unsigned got = 0;
  METACU_CHECK(cudaMemcpy(&got, dresult, sizeof(unsigned), cudaMemcpyDeviceToHost));
  bool ok = got == expected;
  std::printf("block_sum: n=%zu, compute capability %d.%d, loaded image sm_%d, "
              "%d threads x %d x %d values: %u, CPU %u: %s\n",
              n, cc / 10, cc % 10, arch, cfg.threads, cfg.items, cfg.vec, got, expected,
              ok ? "ok" : "MISMATCH");
  std::printf("row|block_sum|loaded image / config (loaded_arch)|sm_%d: %dx%dx%d|%s\n", arch,
              cfg.threads, cfg.items, cfg.vec, ok ? "matches CPU" : "MISMATCH");

  // Bandwidth, counting bytes read and written: the sum reads n values (the
  // partials are a fraction of a percent more); a device-to-device copy
  // reads and writes n.
  float sum_ms = median_ms([&] { device_sum(din, dpartials, dresult, n); });
  float copy_ms = median_ms([&] {
    METACU_CHECK(cudaMemcpyAsync(dcopy, din, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  });
  double sum_gbs = 1.0 * n * sizeof(unsigned) / (sum_ms * 1e6);
  double copy_gbs = 2.0 * n * sizeof(unsigned) / (copy_ms * 1e6);
  std::printf("block_sum: %.1f GB/s (%.3f ms), cudaMemcpy device to device %.1f GB/s "
              "(%.3f ms): %.2fx\n",
              sum_gbs, sum_ms, copy_gbs, copy_ms, sum_gbs / copy_gbs);
  std::printf("row|block_sum|bandwidth vs cudaMemcpy D2D|%.0f vs %.0f GB/s|%.2fx\n", sum_gbs,
              copy_gbs, sum_gbs / copy_gbs);

  METACU_CHECK(cudaFree(din));
  METACU_CHECK(cudaFree(dcopy));
  METACU_CHECK(cudaFree(dpartials));
  METACU_CHECK(cudaFree(dresult));
  return ok ? 0 : 1;
}
#endif
