// Declarations chosen per architecture in a header, as real backends write
// them: device helpers that exist from one architecture on, a layout type
// and its members per architecture, and a dispatch table whose entries are
// nullptr where an architecture lacks the kernel.
#pragma once
#include "arch.cuh"

#ifdef BK_CP_ASYNC_AVAILABLE // AUDIT: declaration
__device__ __forceinline__ int bk_fetch(const int *p) { return __ldg(p); }
#else
__device__ __forceinline__ int bk_fetch(const int *p) { return *p; }
#endif

template <int Variant> struct bk_layout;

#if __CUDA_ARCH__ >= BK_CC_HOPPER // AUDIT: declaration
template <> struct bk_layout<0> {
  static constexpr int rows = 128;
};
using bk_acc_t = float;
#else
template <> struct bk_layout<0> {
  static constexpr int rows = 64;
};
using bk_acc_t = int;
#endif

struct bk_stage {
  int depth;
#if __CUDA_ARCH__ >= BK_CC_AMPERE // AUDIT: declaration
  __device__ int slots() const { return depth * 2; }
#else
  __device__ int slots() const { return depth; }
#endif
};

enum bk_path {
  bk_path_plain,
#ifdef BK_CLUSTER_AVAILABLE // AUDIT: list-entry
  bk_path_cluster,
#endif
  bk_path_count
};
