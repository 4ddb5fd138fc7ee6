// Device helpers shared by every kernel family: feature-macro tests,
// host/device splits and uses of __CUDA_ARCH__'s value.
#pragma once
#include "arch.cuh"

template <int CC> struct bk_tile {
  static constexpr int rows = CC >= BK_CC_AMPERE ? 128 : 64;
};

template <int CC> __device__ __forceinline__ int bk_unroll() {
  return CC >= BK_CC_HOPPER ? 8 : 4;
}

__device__ __forceinline__ float bk_fma(float a, float b, float c) {
#ifdef BK_TURING_MMA_AVAILABLE // AUDIT: statement
  return __fmaf_rn(a, b, c);
#else
  return a * b + c;
#endif
}

__host__ __device__ inline int bk_warp_size() {
#if __CUDA_ARCH__ >= 700 // AUDIT: host-device-split
  return warpSize;
#else
  return 32;
#endif
}

__host__ __device__ inline unsigned bk_lane(unsigned i) {
#ifdef __CUDA_ARCH__ // AUDIT: host-device-split
  return i & 31u;
#else
  return i % 32u;
#endif
}

__device__ inline int bk_tile_rows() {
#ifdef __CUDA_ARCH__ // AUDIT: local-declaration
  constexpr int cc = __CUDA_ARCH__; // AUDIT: value
  return bk_tile<cc>::rows;
#else
  return 0;
#endif
}

__device__ inline int bk_unroll_here() {
#if defined(__CUDA_ARCH__) // AUDIT: statement
  return bk_unroll<__CUDA_ARCH__>(); // AUDIT: value
#else
  return 1;
#endif
}
