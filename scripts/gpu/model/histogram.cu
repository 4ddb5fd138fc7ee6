// histogram: the 256-bin histogram of a 16,384 x 16,384 8-bit image (2^28
// pixels), the kernel of equalisation and thresholding: each block counts
// its pixels into shared-memory bins by atomics, then adds its bins to the
// global histogram atomically. Each thread walks a grid-stride loop over
// 4-, 8- or 16-byte words (`vector`); the block keeps one set of bins or one
// a warp (`per_warp`: fewer lanes meeting on a bin, more bins to clear and
// add up); the grid is blocks_per_sm blocks per SM of an H100 (132 SMs), so
// its atomics to global memory grow with it. The image is smooth with
// noise, as photographs are: neighbouring pixels fall in few bins. Held out
// from the model of `metacu report`: its predictions were committed before
// it was measured on the GPU (docs/report.md, "Two more held-out kernels").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr long long problem_n = 1LL << 28;
constexpr int side = 16384;
constexpr int sms = 132;
constexpr int BINS = 256;

@meta metacu::tune_space space =
    metacu::tune_space("histogram")
        .param("block_size", {128, 256, 512, 1024})
        .param("blocks_per_sm", {1, 2, 4, 8, 16, 32})
        .param("vector", {1, 2, 4})
        .flag("per_warp")
        .launch([](const metacu::json& p) {
          return metacu::tune_launch{{p["block_size"].as_int()}, {sms * p["blocks_per_sm"].as_int()}};
        })
        .problem_size({problem_n})
        .tolerance(0.5);

__device__ inline void count(unsigned* bins, unsigned w) {
  atomicAdd(&bins[w & 0xff], 1u);
  atomicAdd(&bins[(w >> 8) & 0xff], 1u);
  atomicAdd(&bins[(w >> 16) & 0xff], 1u);
  atomicAdd(&bins[w >> 24], 1u);
}
__device__ inline void count(unsigned* bins, uint2 w) {
  count(bins, w.x);
  count(bins, w.y);
}
__device__ inline void count(unsigned* bins, uint4 w) {
  count(bins, w.x);
  count(bins, w.y);
  count(bins, w.z);
  count(bins, w.w);
}

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(const unsigned char* __restrict__ in, int n, unsigned* hist) {
  constexpr int threads = @(c.params["block_size"].as_int());
  constexpr int copies = @(c.params["per_warp"].as_bool() ? c.params["block_size"].as_int() / 32 : 1);
  @meta int vec = c.params["vector"].as_int();
  @meta std::string type = vec == 1 ? "unsigned" : "uint" + std::to_string(vec);
  __shared__ unsigned bins[copies][BINS];
  for (int i = threadIdx.x; i < copies * BINS; i += threads)
    bins[i / BINS][i % BINS] = 0;
  __syncthreads();
  const @(type)* v = reinterpret_cast<const @(type)*>(in);
  unsigned* mine = bins[copies == 1 ? 0 : threadIdx.x / 32];
  for (int i = blockIdx.x * threads + threadIdx.x; i < n / int(sizeof(@(type)));
       i += gridDim.x * threads)
    count(mine, v[i]);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += threads) {
    unsigned sum = 0;
    for (int k = 0; k < copies; ++k)
      sum += bins[k][b];
    if (sum)
      atomicAdd(&hist[b], sum);
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct histogram_kernel {
  const char* name;
  void (*kernel)(const unsigned char*, int, unsigned*);
  int block, blocks_per_sm;
};
const histogram_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["block_size"].as_int()), @(c.params["blocks_per_sm"].as_int())},
  }
};

// Pixel (r, c): a gradient in bands of 64 pixels each way plus noise of 0
// to 15; the counts are exact, so any error is a miscount.
struct histogram_problem {
  int n;
  std::vector<unsigned> ref = std::vector<unsigned>(BINS), got = std::vector<unsigned>(BINS);
  unsigned char* din = nullptr;
  unsigned* dhist = nullptr;

  explicit histogram_problem(const std::vector<long long>& size) : n(int(size.at(0))) {
    std::vector<unsigned char> in(n);
    for (int i = 0; i < n; ++i) {
      unsigned r = unsigned(i) / side, col = unsigned(i) % side;
      unsigned noise = (unsigned(i) * 2654435761u) >> 28;
      in[i] = (unsigned char)((r / 64 + col / 64 + noise) & 0xff);
      ++ref[in[i]];
    }
    METACU_CHECK(cudaMalloc(&din, size_t(n)));
    METACU_CHECK(cudaMalloc(&dhist, BINS * sizeof(unsigned)));
    METACU_CHECK(cudaMemcpy(din, in.data(), size_t(n), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dhist, 0, BINS * sizeof(unsigned))); }
  void launch(size_t i) {
    const histogram_kernel& k = kernels[i];
    k.kernel<<<sms * k.blocks_per_sm, k.block>>>(din, n, dhist);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(got.data(), dhist, BINS * sizeof(unsigned), cudaMemcpyDeviceToHost));
    double e = 0;
    for (int b = 0; b < BINS; ++b)
      e = std::fmax(e, std::fabs(double(got[b]) - double(ref[b])));
    return e;
  }
};
METACU_TUNE_MAIN(histogram_problem)
#endif
