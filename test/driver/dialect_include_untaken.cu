// RUN: %metacu %s -o - --arch 75,80 | FileCheck %s
// RUN: %metacu %s -o - --arch 80 -DSPLICED | FileCheck %s --check-prefix=GUARD
// An #include of a dialect header that no pass of nvcc takes (#if 0, a
// macro the user does not define, a region for compilers other than nvcc
// that a host compiler's reading takes) stays as it is, in the input and
// in a plain header.
#if 0
#include "Inputs/unexpanded/kernels.cuh"
#endif
#ifdef USER_OPTION_NOT_GIVEN
#include "Inputs/unexpanded/kernels.cuh"
#endif
#ifndef __CUDACC__
#include "Inputs/unexpanded/kernels.cuh"
#endif
// CHECK: {{^}}#if 0
// CHECK-NEXT: {{^}}#include "Inputs/unexpanded/kernels.cuh"
// CHECK: {{^}}#ifdef USER_OPTION_NOT_GIVEN
// CHECK-NEXT: {{^}}#include "Inputs/unexpanded/kernels.cuh"
// CHECK: {{^}}#ifndef __CUDACC__
// CHECK-NEXT: {{^}}#include "Inputs/unexpanded/kernels.cuh"
// Once the header is spliced in, its include guard keeps nvcc's device
// passes out of it where a plain header includes it again.
#ifdef SPLICED
#include "Inputs/unexpanded/kernels.cuh"
#include "Inputs/unexpanded/relay.h"
#endif
// GUARD: {{^}}__device__ inline int lanes() { return 4; }
// GUARD: {{^}}#include "Inputs/unexpanded/relay.h"
__global__ void k(int* x) { x[0] = 1; }
