// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A 'return' in a meta statement has no function of the program to return
// from: it would end generation of the rest of the file silently. It is an
// error at the statement; one inside a meta function or lambda is not.
@meta int twice(int v) { return 2 * v; }
__global__ void k(int* out) {
  @meta auto square = [](int v) { return v * v; };
  @meta for (int i = 0; i < 4; ++i) {
    out[i] = @(twice(i) + square(i));
    @meta if (i == 1) @meta return;
// CHECK: [[FILE]]:[[@LINE-1]]:23: error: 'return' in meta code outside a meta function
  }
  out[9] = 9;
}
