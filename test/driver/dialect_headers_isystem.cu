// RUN: %metacu %s -o - --arch 80 -isystem %S/Inputs/unexpanded/sys | FileCheck %s
// A dialect header found through the user's -isystem (as a library
// consumed as a CMake imported target is) is spliced as one found through
// -I: nvcc never sees its #include.
#include <lib/copy.cuh>
__global__ void k(int* x) { x[0] = width(); }
// CHECK-NOT: {{^}}#include <lib/copy.cuh>
// CHECK: {{^}}__device__ inline int width() { return 16; }
// CHECK-NOT: {{^}}#include <lib/copy.cuh>
// CHECK: {{^}}__global__ void k(int* x) { x[0] = width(); }
