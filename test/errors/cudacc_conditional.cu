// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// nvcc defines __CUDACC__; metacu's host-slice parse does not. Rather than
// guess which branch nvcc compiles, metacu asks for the construct to move.
#define ON_NVCC defined(__CUDACC__)
__global__ void k(int* x) {
#if ON_NVCC
  @meta int n = 1;
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta construct inside a preprocessor conditional that tests __CUDACC__ or __NVCC__
  x[0] = n;
#endif
}
