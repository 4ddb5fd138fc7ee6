// RUN: %check-golden %s -- --arch 75,80,90
// Macros defined per architecture: a #define inside an 'if codegen' branch
// lands in the #if the branch becomes, so each pass (the host's included)
// defines what its branch defines; ordinary code tests and uses the macros
// as before, and nvcc's passes read them per architecture.
#include <cassert>

if codegen (__nvvm_arch == nvvm_arch_t{} || __nvvm_arch >= nvvm_arch_t::sm_80) {
#define CP_ASYNC_ENABLED
}

if codegen (__nvvm_arch != nvvm_arch_t{}) {
#define RUNTIME_ASSERT(x) __brkpt()
} else {
#define RUNTIME_ASSERT(x) assert(0 && x)
}

@meta constexpr bool has_cluster(nvvm_arch_t a) { return a >= nvvm_arch_t::sm_90; }

__device__ void copy16(uint4 *smem, const uint4 *gmem) {
#ifdef CP_ASYNC_ENABLED
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(gmem));
#else
  *smem = *gmem;
#endif
}

__global__ void k(uint4 *out, const uint4 *in) {
  __shared__ uint4 tile[32];
  copy16(tile + threadIdx.x, in + threadIdx.x);
  if codegen (has_cluster(__nvvm_arch)) {
    out[threadIdx.x].x = tile[threadIdx.x].x + 1;
  } else {
    if (tile[threadIdx.x].x == 0)
      RUNTIME_ASSERT("zero");
    out[threadIdx.x] = tile[threadIdx.x];
  }
}
