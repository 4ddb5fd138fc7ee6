// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A branch before the conditional's first test of __CUDA_ARCH__ may hold
// meta constructs (every pass chooses it alike); one from that test on may
// not.
__global__ void k(int* x) {
#if !defined(GGML_USE_MUSA)
  if codegen (__nvvm_arch >= 80) { x[0] = 1; }
#elif __CUDA_ARCH__ >= 800
  x[0] = 1;
#else
  @meta for (int i = 0; i < 2; ++i)
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta construct inside a preprocessor conditional that tests __CUDA_ARCH__
    x[i] = 0;
#endif
}
