// Global-to-shared copies: cp.async where the architecture has it.
#pragma once
#include "arch.cuh"

__device__ __forceinline__ void bk_copy4(float *dst, const float *src) {
#if defined(BK_CP_ASYNC_AVAILABLE) // AUDIT: local-declaration
  unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(src));
#else
  *dst = *src;
#endif
}

__device__ __forceinline__ void bk_copy_wait() {
#ifdef BK_CP_ASYNC_AVAILABLE // AUDIT: statement
  asm volatile("cp.async.wait_all;\n" ::);
#endif
  __syncthreads();
}
