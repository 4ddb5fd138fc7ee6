// RUN: rm -rf %t && %python %S/Inputs/line_breaks.py %S/Inputs/line_breaks.cuh %t
// RUN: cp %s %t/lf/k.cu && cp %s %t/crlf/k.cu && cp %s %t/cr/k.cu && cp %s %t/bom/k.cu
// RUN: cd %t/lf && %metacu k.cu -o k.gen.cu --arch 80
// RUN: cd %t/crlf && %metacu k.cu -o k.gen.cu --arch 80
// RUN: cd %t/cr && %metacu k.cu -o k.gen.cu --arch 80
// RUN: cd %t/bom && %metacu k.cu -o k.gen.cu --arch 80
// RUN: cmp %t/lf/k.gen.cu %t/crlf/k.gen.cu
// RUN: cmp %t/lf/k.gen.cu %t/cr/k.gen.cu
// RUN: cmp %t/lf/k.gen.cu %t/bom/k.gen.cu
// RUN: FileCheck %s < %t/cr/k.gen.cu
// RUN: %nvcc -ptx -arch=sm_80 %t/cr/k.gen.cu -o %t/k.ptx
// A dialect header with CRLF or CR line breaks, or a byte order mark, is
// spliced as Clang reads it: its meta declarations are seen, its ordinary
// code kept with its own line numbers, its mark left out.
#include "line_breaks.cuh"
__global__ void k(int* x) {
  @meta for (int i = 0; i < header_count; ++i)
    x[i] = twice(@(i));
}
// CHECK: {{^}}#line 5 "line_breaks.cuh"
// CHECK-NEXT: {{^}}inline __device__ int twice(int v) { return 2 * v; }
// CHECK: {{^}}  { x[2] = twice(2); }
