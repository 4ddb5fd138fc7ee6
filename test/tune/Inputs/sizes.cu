// A kernel tuned per problem size, for the tests of metacu tune's sizes:
// the space declares four sizes; the ordinary build generates one kernel
// per size of the tuning file (each architecture's branch from its entry
// nearest that size) and the host's table that metacu::select(table, arch,
// {n}) chooses from.
#include <map>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

@meta metacu::tune_space space =
    metacu::tune_space("twice")
        .param("block", {32, 64, 128})
        .param("per_thread", {1, 2, 4})
        .sizes({{1024}, {4096}, {16384}, {65536}})
        .metric("GB/s", [](const std::vector<long long>& size) { return 8.0 * size[0] / 1e9; },
                metacu::tune_direction::maximize)
        .tolerance(0);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* x, int n) {
  int i = (blockIdx.x * @(c.params["block"].as_int()) + threadIdx.x) * @(c.params["per_thread"].as_int());
  @meta for (int k = 0; k < c.params["per_thread"].as_int(); ++k)
    if (i + @(k) < n) x[i + @(k)] *= 2.0f;
}
}

#ifdef TUNED
@meta metacu::json tuning = metacu::load_json(TUNED);
@meta std::vector<std::vector<long long>> tuned = metacu::tuned_sizes(tuning);

@meta for (size_t k = 0; k < tuned.size(); ++k) {
__global__ void @("twice_" + std::to_string(k))(float* x, int n) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = metacu::tuned_params(tuning, arch, tuned[k]);
      int i = (blockIdx.x * @(p["block"].as_int()) + threadIdx.x) * @(p["per_thread"].as_int());
    }
  }
}
}

struct twice_variant {
  void (*kernel)(float*, int);
  int block, per_thread;
};

@meta int kernel_for(const std::vector<long long>& size) {
  for (size_t k = 0; k < tuned.size(); ++k)
    if (tuned[k] == size)
      return k;
  return 0;
}

const std::map<int, std::vector<metacu::sized<twice_variant>>> twice_table = {
  @meta for (const auto& [arch, entries] : metacu::tuning_entries(tuning)) {
  {@(arch), {
    @meta for (const metacu::tuning_entry& e : entries) {
    {{@(e.size.empty() ? 1ll : e.size[0])}, {@("twice_" + std::to_string(kernel_for(e.size))), @(e.params["block"].as_int()), @(e.params["per_thread"].as_int())}},
    }
  }},
  }
};
#endif
