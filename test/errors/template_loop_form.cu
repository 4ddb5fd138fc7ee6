// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
template <int N> __device__ void f(int* x) {
  @meta for (int i = 1; i < N; i *= 2)
// CHECK: [[FILE]]:[[@LINE-1]]:32: error: a '@meta for' whose bounds depend on template parameters must read 'for (T i = A; i < B; ++i)'
    x[i] = 0;
}
