// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A splice has one value, computed before any instantiation: one that reads
// a template parameter, or the index of a '@meta for' over one, says so
// (it was Clang's "use of undeclared identifier" from inside the generator).
template <int N>
__device__ void fill(int* out) {
  @meta for (int i = 0; i < N; ++i)
    out[@(i)] = i;
// CHECK: [[FILE]]:[[@LINE-1]]:9: error: this splice reads a template parameter (or a constant of the template, such as the index of a '@meta for' over template parameters), which has a value per instantiation only; write the expression without '@(...)'
}
__global__ void k(int* out) { fill<4>(out); }
