// Choices between namespace-scope and class-scope declarations: these stay,
// since 'if codegen' selects statements in a function body.
#pragma once
#include "arch.cuh"

#ifdef BK_CP_ASYNC_AVAILABLE // AUDIT: not-convertible
constexpr int bk_pipeline_stages = 4;
#else
constexpr int bk_pipeline_stages = 2;
#endif

struct bk_launch_limits {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= BK_CC_HOPPER // AUDIT: not-convertible
  static constexpr int max_cluster = 8;
#else
  static constexpr int max_cluster = 1;
#endif
  int blocks;
};
