// RUN: rm -rf %t && %python %S/Inputs/line_breaks.py %s %t
// RUN: cd %t/lf && %metacu line_breaks.cu -o k.gen.cu --arch 80
// RUN: cd %t/crlf && %metacu line_breaks.cu -o k.gen.cu --arch 80
// RUN: cd %t/cr && %metacu line_breaks.cu -o k.gen.cu --arch 80
// RUN: cd %t/bom && %metacu line_breaks.cu -o k.gen.cu --arch 80
// RUN: cmp %t/lf/k.gen.cu %t/crlf/k.gen.cu
// RUN: cmp %t/lf/k.gen.cu %t/cr/k.gen.cu
// RUN: cmp %t/lf/k.gen.cu %t/bom/k.gen.cu
// RUN: FileCheck %s < %t/cr/k.gen.cu
// RUN: %nvcc -ptx -arch=sm_80 %t/cr/k.gen.cu -o %t/k.ptx
// A file is read as Clang and nvcc read it: CRLF and a lone CR end a line
// as LF does, and a byte order mark is skipped. The output is the same for
// all four (LF line breaks, no mark), ordinary code and #line numbers
// included, and nvcc compiles it.
__global__ void k(int* x) {
  int a = x[9];
  @meta for (int i = 0; i < 2; ++i)
    x[i] = @(i) + a;
  x[5] = a;
}
// CHECK: {{^}}#line 1 "line_breaks.cu"
// CHECK-NEXT: {{^}}// RUN: rm -rf
// CHECK: {{^}}__global__ void k(int* x) {
// CHECK-NEXT: {{^}}  int a = x[9];
// CHECK-NEXT: {{^}}#line 18 "line_breaks.cu"
// CHECK-NEXT: {{^}}  { x[0] = 0 + a; }
// CHECK-NEXT: {{^}}#line 18 "line_breaks.cu"
// CHECK-NEXT: {{^}}  { x[1] = 1 + a; }
// CHECK-NEXT: {{^}}  x[5] = a;
// CHECK-NEXT: {{^}}}
