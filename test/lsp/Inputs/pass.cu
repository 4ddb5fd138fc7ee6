// Which pass the editor shows (--pass): that architecture's branch of an
// 'if codegen' reads as live code, the others as inactive regions.
__global__ void pick(int *out) {
  @meta for enum (auto sm : nvvm_arch_t) {
    if codegen (__nvvm_arch == sm) {
      int arch = (int)sm;
      out[threadIdx.x] = arch;
    }
  }
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    int hopper = 1;
    out[0] = hopper;
  }
}
