// RUN: %check-golden %s -- --arch 75,80,90a
// 'if codegen' chains become #if/#elif/#else ladders on __CUDA_ARCH__; the
// host pass has __nvvm_arch == nvvm_arch_t{} (0). Branches no pass takes
// are dropped, and a branch every pass takes needs no guard at all.
__device__ int pick() {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90a) {
    return 3;
  } else if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    return 2;
  } else if codegen (__nvvm_arch == nvvm_arch_t{}) {
    return 0;
  } else {
    return 1;
  }
}

__host__ __device__ int where() {
  if codegen ((int)__nvvm_arch != 0)
    return 1;
  else
    return -1;
}

__device__ int never() {
  if codegen ((int)__nvvm_arch > 1000) {
    return 99;
  }
  if codegen (true) {
    return 7;
  }
}
