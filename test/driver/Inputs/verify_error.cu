// An error that only the sm_90 pass sees (its branch is the only one that
// names the identifier); metacu itself never parses ordinary code.
@meta int n = 2;
__global__ void k(float* x) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    x[0] = 1.0f;
    @meta for (int i = 0; i < n; ++i)
      undefined_thing[i] = 0;
  }
}
