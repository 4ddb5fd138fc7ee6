// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta int depth(int n) { return depth(n + 1) + 1; }
__global__ void k(int* x) {
  @meta int d = depth(0);
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta code crashed: segmentation fault (SIGSEGV): a bad pointer or a runaway recursion
  x[0] = d;
}
