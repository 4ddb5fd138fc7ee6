// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A macro whose body names a meta variable is refused where ordinary code
// uses it (also through another macro); meta code may use it.
@meta int w = 3;
#define SCALE(x) ((x) * w)
#define TWICE_SCALED(x) (2 * SCALE(x))
@meta int v = SCALE(2);
__device__ int ok(int w) { return SCALE(w); }
__global__ void k(int* out) {
  out[0] = v;
  out[1] = TWICE_SCALED(2);
// CHECK: [[FILE]]:[[@LINE-1]]:12: error: macro 'TWICE_SCALED' (defined at line 8) expands to the meta variable 'w', which nvcc cannot see
}
