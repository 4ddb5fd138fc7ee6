// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DDIR=%S -DFILE=%s
// RUN: not test -e %t.gen.cu
// A plain header that includes a dialect header where only nvcc's device
// passes read it: metacu's host reading never enters the dialect header,
// so it is not spliced, and nvcc would compile it unexpanded. The error
// is at the plain header's #include.
#include "Inputs/unexpanded/relay.h"
__global__ void k(int* x) { x[0] = 1; }
// CHECK: [[DIR]]/Inputs/unexpanded/relay.h:3:10: error: header '[[DIR]]/Inputs/unexpanded/kernels.cuh' contains meta constructs (at [[DIR]]/Inputs/unexpanded/kernels.cuh:3:1) and nvcc's device pass for sm_75 (__CUDA_ARCH__ 750) reads it through this #include
// CHECK-SAME: ('[[DIR]]/Inputs/unexpanded/relay.h' is read from [[FILE]]:8)
// CHECK-NEXT: #include "kernels.cuh"
// CHECK-NEXT: ^
