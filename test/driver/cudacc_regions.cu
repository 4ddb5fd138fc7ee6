// RUN: %metacu %s -o - --arch 80 | FileCheck %s
// Regions are live or skipped as in nvcc's host pass, which defines
// __CUDACC__ (metacu's C++-mode parse does not; a CUDA-mode preprocessing
// settles such regions when meta constructs sit in them).
#define ON_NVCC defined(__CUDACC__)
#if ON_NVCC
@meta int lanes = 3;
__device__ int value = @(lanes);
#else
@meta nvcc never compiles this
#endif
// CHECK: __device__ int value = 3;
// CHECK: @meta nvcc never compiles this
