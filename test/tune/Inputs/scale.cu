// A small kernel with a tuning space, for the tests of metacu tune's
// kernel flow: the block size and the elements per thread are tuned; the
// restriction keeps the block at or below 256 threads of work.
#include <cmath>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

@meta metacu::tune_space space =
    metacu::tune_space("scale")
        .param("block", {32, 64, 128, 256})
        .param("per_thread", {1, 2, 4})
        .flag("unroll")
        .require([](const metacu::json& p) {
          return p["block"].as_int() * p["per_thread"].as_int() <= 256;
        })
        .launch([](const metacu::json& p) {
          long long per_block = p["block"].as_int() * p["per_thread"].as_int();
          return metacu::tune_launch{{p["block"].as_int()}, {((1 << 20) + per_block - 1) / per_block}};
        })
        .problem_size({1 << 20})
        .metric("GB/s", 8.0 * (1 << 20) / 1e9, metacu::tune_direction::maximize)
        .tolerance(0);

struct scale_kernel {
  const char* name;
  void (*kernel)(float*, int);
  int block, per_thread;
};

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* x, int n) {
  int i = (blockIdx.x * @(c.params["block"].as_int()) + threadIdx.x) * @(c.params["per_thread"].as_int());
  @meta for (int k = 0; k < c.params["per_thread"].as_int(); ++k) {
    if (i + @(k) < n)
      x[i + @(k)] *= 2.0f;
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>
const scale_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), c.params["block"].as_int(), c.params["per_thread"].as_int()},
  }
};

struct scale_problem {
  int n;
  float* x = nullptr;
  std::vector<float> out;
  explicit scale_problem(const std::vector<long long>& size) : n(int(size.at(0))), out(n) {
    METACU_CHECK(cudaMalloc(&x, n * sizeof(float)));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() {
    std::vector<float> ones(n, 1.0f);
    METACU_CHECK(cudaMemcpy(x, ones.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  }
  void launch(size_t i) {
    const scale_kernel& k = kernels[i];
    int per_block = k.block * k.per_thread;
    k.kernel<<<(n + per_block - 1) / per_block, k.block>>>(x, n);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(out.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (float v : out)
      e = std::fmax(e, std::fabs(v - 2.0f));
    return e;
  }
};
METACU_TUNE_MAIN(scale_problem)
#endif
