// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
#if __CUDA_ARCH__ >= 800
#define HAS_ASYNC 1
#endif
__global__ void k(int* x) {
#ifdef HAS_ASYNC
  @meta int n = 1;
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta construct inside a preprocessor conditional that tests __CUDA_ARCH__
  x[0] = n;
#endif
}
