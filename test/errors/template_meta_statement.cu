// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// Meta code reading a template parameter runs per instantiation, as
// constant expressions; a statement that is not a declaration cannot.
template <int N> __device__ int f() {
  @meta int h = N / 2;
  @meta printf("%d\n", h);
// CHECK: [[FILE]]:[[@LINE-1]]:9: error: this meta statement uses a template parameter, so its value differs per instantiation
  return h;
}
