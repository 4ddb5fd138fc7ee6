// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
template <int N> __device__ void f(int* x) {
  @meta for (int i = 0; i < N; ++i) {
    if (x[i] < 0)
      break;
// CHECK: [[FILE]]:[[@LINE-1]]:7: error: 'break' cannot appear in a '@meta for' whose bounds depend on template parameters
  }
}
