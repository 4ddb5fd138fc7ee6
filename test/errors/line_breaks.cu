// RUN: rm -rf %t && %python %S/../driver/Inputs/line_breaks.py %s %t
// RUN: cd %t/crlf && not %metacu line_breaks.cu -o k.gen.cu --arch 80 2>&1 | FileCheck %s
// RUN: cd %t/cr && not %metacu line_breaks.cu -o k.gen.cu --arch 80 2>&1 | FileCheck %s
// RUN: cd %t/bom && not %metacu line_breaks.cu -o k.gen.cu --arch 80 2>&1 | FileCheck %s
// RUN: not test -e %t/cr/k.gen.cu
// An error in a file with CRLF or CR line breaks, or a byte order mark, is
// at the line and column Clang gives, with the line's text.
__global__ void k(int* x) {
  @meta for (int i = 0; i < limit; ++i)
    x[i] = 0;
}
// CHECK: line_breaks.cu:9:29: error: use of undeclared identifier 'limit'
// CHECK-NEXT: {{^}}  @meta for (int i = 0; i < limit; ++i){{$}}
// CHECK-NEXT: {{^}}                            ^
