// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// metacu::fail points at its call, even inside a meta function.
@meta int checked(int n) {
  if (n > 1024)
    metacu::fail("block size " + std::to_string(n) + " exceeds 1024");
// CHECK: [[FILE]]:[[@LINE-1]]:5: error: block size 2048 exceeds 1024
  return n;
}
__global__ void k(int* x) { x[0] = checked(2048); }
