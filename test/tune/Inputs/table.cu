// The small kernel of scale.cu read through metacu::tuned_kernels and
// METACU_TUNE_ARRAYS, so that its tuning harness does not depend on the
// candidates (shared-harness.test): the block size and the elements per
// thread are tuned, at most 256 elements a block.
#include <vector>

#include <cuda_runtime.h>
#include <metacu/tuned.h>

@meta metacu::tune_space space =
    metacu::tune_space("table")
        .param("block", {32, 64, 128, 256})
        .param("per_thread", {1, 2, 4})
        .flag("unroll")
        .require([](const metacu::json& p) {
          return p["block"].as_int() * p["per_thread"].as_int() <= 256;
        })
        .problem_size({1 << 20})
        .tolerance(0);
@meta metacu::tuned_kernels table(space, "table.tuning.json",
    metacu::params({{"block", 64}, {"per_thread", 1}, {"unroll", 0}}));

@meta for (const metacu::tuned_kernel& k : table) {
__global__ void @(k.name)(float* x, int n) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = k.params(arch);
      int i = (blockIdx.x * @(p["block"].as_int()) + threadIdx.x) * @(p["per_thread"].as_int());
      @meta for (int e = 0; e < p["per_thread"].as_int(); ++e) {
        if (i + @(e) < n)
          x[i + @(e)] *= 2.0f;
      }
    }
  }
}
}

const metacu::tuned_table<void(float*, int)> table_kernels = @(table.host_table());

METACU_TUNE_ARRAYS(table_kernels.size(), [](metacu::tune::arrays& io) {
  int n = int(io.size.at(0));
  float* x = io.inout(std::vector<float>(n, 1.0f), [](size_t) { return 2.0; });
  return [=](size_t i) {
    const metacu::tuned_config& p = table_kernels.config(i);
    int per_block = int(p["block"] * p["per_thread"]);
    table_kernels.kernel(i)<<<(n + per_block - 1) / per_block, p["block"]>>>(x, n);
  };
})
