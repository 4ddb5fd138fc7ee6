// Tile sizes per architecture, read by the host and the device.
#include "../common/util.cuh"

extern "C" __global__ void bk_tile_info(int *out) {
  constexpr int stages_here = 2;
#if __CUDA_ARCH__ >= BK_CC_AMPERE // AUDIT: statement
  out[0] = bk_tile_rows() * stages_here;
#elif __CUDA_ARCH__ >= BK_CC_TURING
  out[0] = bk_tile_rows();
#else
  out[0] = -1;
#endif
  out[1] = bk_unroll_here();
}
