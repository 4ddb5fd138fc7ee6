// RUN: %check-golden %s -- --arch 75,80
// A tuning table read from JSON at generation time, one configuration per
// architecture.
__global__ void copy(const float* x, float* y) {
  @meta auto tuning = metacu::load_json("Inputs/tuning.json");
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const auto& cfg = tuning[metacu::enum_name(arch)];
      @meta int items = cfg["items"].get<int>();
      int base = blockIdx.x * @(cfg["threads"].get<int>() * items) + threadIdx.x;
      @meta for (int i = 0; i < items; ++i)
        y[base + i * @(cfg["threads"].as_int())] = x[base + i * @(cfg["threads"].as_int())];
    }
  }
}
