// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DANGLED -I%S/Inputs/unexpanded 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An #include whose header name is a macro, in a region metacu's host
// reading skips and nvcc's device passes take: followed to the header the
// macro names, in both forms.
#ifdef ANGLED
#define KERNELS <kernels.cuh>
#else
#define KERNELS "Inputs/unexpanded/kernels.cuh"
#endif
#if defined(__CUDA_ARCH__)
#include KERNELS
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: header '{{.*}}kernels.cuh' contains meta constructs (at {{.*}}kernels.cuh:3:1) and nvcc's device pass for sm_80 (__CUDA_ARCH__ 800) reads it through this #include
#endif
__global__ void k(int* x) { x[0] = 1; }
