// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A declaration meta code reads is compiled into the generator, which runs
// once for all architectures.
struct tile_t { int n; };
constexpr tile_t tile { (int)__nvvm_arch / 5 };
// CHECK: [[FILE]]:[[@LINE-1]]:30: error: '__nvvm_arch' in a declaration that meta code uses
__global__ void k(int* x) {
  @meta for (int i = 0; i < tile.n; ++i)
    x[i] = 0;
}
