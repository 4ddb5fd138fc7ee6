// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s --implicit-check-not=JIT
// RUN: not test -e %t.gen.cu
// Meta code runs on the host at generation time: what it calls or reads
// must be defined there. A __device__ function or a declaration only is
// an error at the declaration (it was the JIT's link error, with every
// symbol of the program and no place); one the process has (libc's abs)
// is not.
extern "C" int abs(int);
__device__ int scale(int x) { return 4 * x; }
// CHECK: [[FILE]]:[[@LINE-1]]:16: error: 'scale' is used by meta code, which runs on the host at generation time, but has no host definition there
extern int counter;
// CHECK: [[FILE]]:[[@LINE-1]]:12: error: 'counter' is used by meta code
__global__ void k(int* out) {
  out[0] = @(abs(-3) + scale(2) + counter);
}
