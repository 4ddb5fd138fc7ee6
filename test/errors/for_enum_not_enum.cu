// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
__global__ void k(int* x) {
  @meta for enum (auto e : int)
// CHECK: [[FILE]]:[[@LINE-1]]:28: error: static assertion failed due to requirement 'std::is_enum_v<int>': '@meta for enum' needs an enumeration type
    x[0] = 1;
}
