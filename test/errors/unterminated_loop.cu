// RUN: rm -f %t.gen.cu && echo previous > %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: grep -qx previous %t.gen.cu
// A malformed construct is reported where it goes wrong, and an existing
// output file is left as it was.
__global__ void k(float* x) {
  @meta for (int i = 0; i < 4; ++i
    x[i] = 0;
}
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: unbalanced '}': expected ')' to match the '(' at line 7
// CHECK-NEXT: {{^}}}{{$}}
// CHECK-NEXT: {{^}}^{{$}}
