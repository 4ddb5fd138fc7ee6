// Choices between namespace-scope and class-scope declarations: they become
// 'if codegen' chains there, whose braces open no scope.
#pragma once
#include "arch.cuh"

#ifdef BK_CP_ASYNC_AVAILABLE // AUDIT: declaration
constexpr int bk_pipeline_stages = 4;
#else
constexpr int bk_pipeline_stages = 2;
#endif

struct bk_launch_limits {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= BK_CC_HOPPER // AUDIT: declaration
  static constexpr int max_cluster = 8;
#else
  static constexpr int max_cluster = 1;
#endif
  int blocks;
};
