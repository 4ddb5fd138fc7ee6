// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
__global__ void k(int* x) {
  @meta for (int i = 0; i < limit; ++i)
// CHECK: [[FILE]]:[[@LINE-1]]:29: error: use of undeclared identifier 'limit'
    x[i] = 0;
}
