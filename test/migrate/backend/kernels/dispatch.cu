// A kernel per architecture family and a table of entry points whose
// entries exist per architecture.
#include "../common/layouts.cuh"

typedef int (*bk_op_t)(const int *);

__device__ int bk_plain(const int *p) { return bk_fetch(p); }

#if __CUDA_ARCH__ >= BK_CC_AMPERE // AUDIT: declaration
__device__ int bk_wide(const int *p) { return bk_fetch(p) + bk_fetch(p + 1); }
#endif

__device__ bk_op_t bk_ops[] = {
    bk_plain,
#if __CUDA_ARCH__ >= BK_CC_AMPERE // AUDIT: list-entry
    bk_wide,
#else
    nullptr,
#endif
};

extern "C" __global__ void bk_dispatch(int *out) {
  bk_op_t op = bk_ops[out[0] & 1];
  out[1] = op ? op(out + 2) : 0;
  out[2] = bk_layout<0>::rows + bk_stage{out[3]}.slots() + bk_path_count +
           (int)bk_acc_t(out[4]);
}
