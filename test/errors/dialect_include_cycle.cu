// RUN: rm -f %t.gen.cu
// RUN: timeout 60 not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An include cycle through a dialect header stops at once, with the chain
// of #include lines, at the input's #include that leads into it (it took
// 95 s, growing with about the fifth power of the depth).
#include "Inputs/include_cycle.cuh"
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: #include cycle through the dialect: [[FILE]]:[[@LINE-1]] includes {{.*}}Inputs/include_cycle.cuh, {{.*}}Inputs/include_cycle.cuh:4 includes [[FILE]], which is being read already
__global__ void k(int* x) { x[0] = @(cycle_value); }
