// Feature macros, one per architecture family, defined from __CUDA_ARCH__
// the way real backends define them and tested in function bodies.
#pragma once

#define BK_CC_TURING 750
#define BK_CC_AMPERE 800
#define BK_CC_HOPPER 900

#if __CUDA_ARCH__ >= BK_CC_TURING // AUDIT: macro-definition
#define BK_TURING_MMA_AVAILABLE
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= BK_CC_AMPERE // AUDIT: macro-definition
#define BK_CP_ASYNC_AVAILABLE
#define BK_BF16_AVAILABLE
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= BK_CC_HOPPER // AUDIT: macro-definition
#define BK_CLUSTER_AVAILABLE
#endif
