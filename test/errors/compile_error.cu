// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// Meta code that does not compile: Clang's message at the user's column.
__global__ void k(int* x) {
  @meta int n = 4 +;
// CHECK: [[FILE]]:[[@LINE-1]]:20: error: expected expression
// CHECK-NEXT: {{^}}  @meta int n = 4 +;{{$}}
// CHECK-NEXT: {{^}}                   ^{{$}}
  x[0] = n;
}
