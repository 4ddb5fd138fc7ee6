// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An aggregate with a member that has no spelling (a pointer) is refused
// where its whole value is used, at the user's line.
struct handle_t { int size; const int* data; };
@meta handle_t h { 64, nullptr };
__global__ void k(int* out) {
  out[0] = h.size;
  handle_t copy = h;
// CHECK: [[FILE]]:[[@LINE-1]]:19: error: meta value of type 'handle_t' has no constant spelling in ordinary code
  out[1] = copy.size;
}
