// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A dialect header included in the input under a condition only nvcc
// defines: its host pass reads it, metacu's C++ reading does not.
#ifdef __CUDACC__
#include "Inputs/unexpanded/kernels.cuh"
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: header '{{.*}}kernels.cuh' contains meta constructs (at {{.*}}kernels.cuh:3:1) and nvcc's host pass (with __CUDACC__ and __NVCC__ defined) reads it through this #include
// CHECK-SAME: include it where every pass does and select per architecture with 'if codegen (__nvvm_arch ...)'
#endif
__global__ void k(int* x) { x[0] = 1; }
