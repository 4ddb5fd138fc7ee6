// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An untagged helper that cannot run on the device is left alone, and a
// call of it from device code is an error that says why.
#include <algorithm>
__host__ int read_config() { return 4; }
int sorted_first(int* v, int n) { std::sort(v, v + n); return v[0]; }
int scaled(int x) { return x * read_config(); }
__global__ void k(int* out) {
  out[0] = scaled(2);
// CHECK: [[FILE]]:[[@LINE-1]]:12: error: 'scaled' has no execution-space attribute and device code calls it, but metacu cannot make it __host__ __device__: it calls 'read_config', which is declared __host__
  out[1] = sorted_first(out, 4);
// CHECK: [[FILE]]:[[@LINE-1]]:12: error: 'sorted_first' has no execution-space attribute and device code calls it, but metacu cannot make it __host__ __device__: it calls 'std::sort', a host function to nvcc
}
