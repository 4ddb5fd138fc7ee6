// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta int tile = 48;
__global__ void k(int* x) {
  @meta static_assert(tile < 32);
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: static assertion failed due to requirement 'tile < 32'
}
