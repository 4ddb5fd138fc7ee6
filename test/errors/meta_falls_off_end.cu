// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A meta function that returns nothing on some path traps when it does.
@meta int positive(int n) { if (n > 0) return n; }
__global__ void k(int* x) {
  @meta int v = positive(0);
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta code crashed: illegal instruction (SIGILL)
  x[0] = v;
}
