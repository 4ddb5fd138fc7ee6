// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80,90 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An #include metacu's host reading takes, of a name from a macro that
// nvcc's device passes define to another header: that header is the one
// they read.
#ifdef __CUDA_ARCH__
#define KERNELS "Inputs/unexpanded/kernels.cuh"
#else
#define KERNELS "Inputs/header_unused.h"
#endif
#include KERNELS
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: header '{{.*}}/Inputs/unexpanded/kernels.cuh' contains meta constructs (at {{.*}}kernels.cuh:3:1) and nvcc's device pass for sm_80 (__CUDA_ARCH__ 800) reads it
__global__ void k(int* x) { x[0] = 1; }
