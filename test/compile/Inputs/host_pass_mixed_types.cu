// Branches of one 'auto' function that return different types: nvcc's
// host pass reports it (the host copy), at the user's line, whatever the
// architecture compiled.
__device__ auto pick() {
  if codegen (__nvvm_arch == nvvm_arch_t::sm_75) {
    return 1;
  } else if codegen (__nvvm_arch == nvvm_arch_t::sm_80) {
    return 2.0f;
  }
}
__global__ void k(float* out) { out[0] = pick(); }
