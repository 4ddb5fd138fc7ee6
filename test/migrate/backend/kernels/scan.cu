// Inclusive warp scans.
#include "../common/util.cuh"

extern "C" __global__ void bk_warp_scan(const int *x, int *y) {
  int v = x[blockIdx.x * 32 + threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) {
    int n = __shfl_up_sync(0xffffffffu, v, o);
#ifdef BK_TURING_MMA_AVAILABLE // AUDIT: statement
    if (bk_lane(threadIdx.x) >= unsigned(o))
      v += n;
#else
    if (threadIdx.x % 32 >= o)
      v += n;
#endif
  }
  y[blockIdx.x * 32 + threadIdx.x] = v;
}
