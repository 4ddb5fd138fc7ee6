// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// Undefined behaviour that Clang sees in meta code is an error at its
// place: the JIT folded '1 / 0' to 0 and read past the array, and the
// splices wrote those values into the kernel.
__global__ void k(int* out) {
  @meta int zero = 1 / 0;
// CHECK: [[FILE]]:[[@LINE-1]]:22: error: division by zero is undefined
  @meta int widths[2] = {1, 2};
  out[0] = @(widths[5]);
// CHECK: [[FILE]]:[[@LINE-1]]:14: error: array index 5 is past the end of the array
}
