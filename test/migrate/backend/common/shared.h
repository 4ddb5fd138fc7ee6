// Read by the kernels and by C++ code the host compiler builds without
// metacu (host/summary.cc): migrate rewrites its conditionals for nvcc
// under #ifdef __CUDACC__ and keeps them as written in its #else, so the
// C++ source compiles what it did.
#pragma once
#ifndef __CUDACC__
#define __host__
#define __device__
#endif

__host__ __device__ inline int bk_lanes(int x) {
#if defined(__CUDA_ARCH__) // AUDIT: host-device-split
  return x + __LINE__;
#else
  return x - __LINE__;
#endif
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 // AUDIT: declaration
__host__ __device__ inline int bk_step() { return 2; }
#else
__host__ __device__ inline int bk_step() { return 1; }
#endif

// A host compiler's branches after the architecture's (XGBoost's Popc):
// they stay directives; the chain's brace goes beside the code after the
// #endif.
__host__ __device__ inline int bk_popc(unsigned v) {
#if defined(__CUDA_ARCH__) // AUDIT: host-device-split
  return __popc(v);
#elif defined(__GNUC__)
  return __builtin_popcount(v);
#else
  return 0;
#endif
}

__host__ __device__ inline int bk_line() { return __LINE__; }
