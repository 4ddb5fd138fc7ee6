// RUN: %metacu %s -o - --arch 80 | FileCheck %s
// Feature macros defined under a __CUDA_ARCH__ test make later blocks that
// test them per-architecture too; a macro defined after such a block does
// not.
#if __CUDA_ARCH__ >= 800
#define HAS_ASYNC 1
#endif
#define LATER 1
#ifdef LATER
@meta int n = 2;
__device__ int value = @(n);
#endif
// CHECK: __device__ int value = 2;
