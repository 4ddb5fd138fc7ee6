// RUN: %metacu %s -o %t.gen.cu --arch 80,90 -I%S/Inputs/dialect
// RUN: FileCheck %s --check-prefix=GEN < %t.gen.cu
// RUN: %nvcc -ptx -arch=sm_80 -I%S/Inputs/dialect %t.gen.cu -o %t.ptx 2> %t.nvcc
// RUN: count 0 < %t.nvcc
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// Dialect headers are spliced as nvcc's host pass reads the input, which
// a host compiler's reading does not: under a condition only nvcc defines,
// and included from a user header that makes itself a system header by
// '#pragma GCC system_header' (as CCCL's headers do), whose pragma the
// splice drops: nvcc would ignore it, with a warning, in the input.
#ifdef __CUDACC__
#include "cudacc_only.cuh"
#endif
#include "pragma_system.h"
__global__ void k(int* x) { x[0] = cudacc_lanes() * pragma_lanes(); }
// GEN-NOT: #include "cudacc_only.cuh"
// GEN-NOT: #include "pragma_dialect.cuh"
// GEN-NOT: {{^}}#pragma GCC system_header
// GEN: __device__ inline int cudacc_lanes() { return 3; }
// GEN: __device__ inline int pragma_lanes() { return 5; }
// PTX: mov.u32 {{%r[0-9]+}}, 15;
