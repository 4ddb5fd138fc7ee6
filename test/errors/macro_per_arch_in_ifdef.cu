// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A macro defined in an 'if codegen' branch differs per architecture;
// metacu reads the file once, so a meta construct under an #ifdef of it
// is refused, as under one of __CUDA_ARCH__.
if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
#define CP_ASYNC_ENABLED
}

__global__ void k(int *out) {
#ifdef CP_ASYNC_ENABLED
  @meta for (int i = 0; i < 2; ++i)
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta construct inside a preprocessor conditional that tests __CUDA_ARCH__
    out[i] = i;
#endif
}
