// reduce_gs: the sum of n floats by a grid-stride loop, the reduction most
// code writes: each thread adds every (grid x block)-th vector of the input
// in a loop whose trip count comes from n (a parameter) and the launch's
// grid, the block combines its threads' sums by warp shuffles and shared
// memory, and one thread per block adds the block's sum to the result
// atomically. Tuned: threads per block, resident blocks asked for per SM of
// an H100 (132 SMs; the grid), and the vector width of the loads. Here for
// the model of `metacu report` (docs/report.md, "Kernels the model was not
// built around").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr long long problem_n = 1LL << 26;
constexpr int sms = 132;

@meta metacu::tune_space space =
    metacu::tune_space("reduce_gs")
        .param("block_size", {128, 256, 512, 1024})
        .param("blocks_per_sm", {1, 2, 4, 8, 16, 32})
        .param("vector", {1, 2, 4})
        .launch([](const metacu::json& p) {
          return metacu::tune_launch{{p["block_size"].as_int()}, {sms * p["blocks_per_sm"].as_int()}};
        })
        .problem_size({problem_n})
        .tolerance(1e-4);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(const float* __restrict__ in, int n, float* out) {
  constexpr int threads = @(c.params["block_size"].as_int());
  @meta int vec = c.params["vector"].as_int();
  @meta std::string type = vec == 1 ? "float" : "float" + std::to_string(vec);
  const @(type)* v = reinterpret_cast<const @(type)*>(in);
  float sum = 0.0f;
  for (int i = blockIdx.x * threads + threadIdx.x; i < n / @(vec); i += gridDim.x * threads) {
    @(type) x = v[i];
    @meta if (vec == 1) {
      sum += x;
    } else {
      @meta for (const char* f : {"x", "y", "z", "w"}) {
        @meta if ((f[0] == 'x' || f[0] == 'y') || vec == 4) {
          sum += x.@(f);
        }
      }
    }
  }
  for (int offset = 16; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ float warp_sums[threads / 32];
  if (threadIdx.x % 32 == 0)
    warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x == 0)
      atomicAdd(out, sum);
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct reduce_kernel {
  const char* name;
  void (*kernel)(const float*, int, float*);
  int block, blocks_per_sm;
};
const reduce_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["block_size"].as_int()), @(c.params["blocks_per_sm"].as_int())},
  }
};

// Inputs in [0, 1); the error is relative to the sum the CPU adds in double.
struct reduce_problem {
  int n;
  double ref = 0;
  float *din = nullptr, *dout = nullptr;

  explicit reduce_problem(const std::vector<long long>& size) : n(int(size.at(0))) {
    std::vector<float> in(n);
    unsigned state = 2026u;
    for (float& v : in) {
      state = state * 1664525u + 1013904223u;
      v = float(state >> 8) / float(1u << 24);
      ref += v;
    }
    METACU_CHECK(cudaMalloc(&din, size_t(n) * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, in.data(), size_t(n) * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dout, 0, sizeof(float))); }
  void launch(size_t i) {
    const reduce_kernel& k = kernels[i];
    k.kernel<<<sms * k.blocks_per_sm, k.block>>>(din, n, dout);
  }
  double error() {
    float sum;
    METACU_CHECK(cudaMemcpy(&sum, dout, sizeof(float), cudaMemcpyDeviceToHost));
    double e = std::fabs(sum - ref) / ref;
    return std::isnan(e) ? INFINITY : e;
  }
};
METACU_TUNE_MAIN(reduce_problem)
#endif
