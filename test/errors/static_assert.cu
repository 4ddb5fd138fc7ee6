// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// '@meta static_assert' checks meta values, known only as the generator
// runs; generation stops at the first failure.
@meta int tile = 48;
@meta static_assert(tile % 32 == 0, "tile must be a multiple of the warp size");
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: static assertion failed: tile must be a multiple of the warp size
// CHECK-NOT: error:
__global__ void k(int* x) {
  @meta static_assert(tile < 32);
}
