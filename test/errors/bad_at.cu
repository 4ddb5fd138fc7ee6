// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
__global__ void k(float* x) {
  x[0] = @ 3;
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: expected 'meta' or '(' after '@'
}
