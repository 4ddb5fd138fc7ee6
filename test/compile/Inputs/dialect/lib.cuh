#pragma once
// A header library in the dialect; its helper header sits beside it.
#include "lib_detail.h"
@meta constexpr int lib_unroll = 4;
template <typename T>
__device__ T lib_sum(const T* x) {
  T acc = detail_zero<T>();
  @meta for (int i = 0; i < lib_unroll; ++i)
    acc += x[i];
#ifdef BREAK
  acc += undefined_thing;
#endif
  return acc;
}
