// GEMM kernels: one tile per block, the tile's height per architecture.
#include "gemm.cuh"

extern "C" __global__ void bk_gemm_f32(const float *a, const float *b,
                                       float *c, int n) {
  int row = blockIdx.y * bk_tile_rows() + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n)
    return;
  float acc = 0.f;
  for (int k = 0; k < n; k += 8)
    acc += bk_dot<8>(a + row * n + k, b + k * n + col, n);
#ifdef BK_CLUSTER_AVAILABLE // AUDIT: statement
  c[row * n + col] = acc * bk_launch_limits::max_cluster / 8;
#else
  c[row * n + col] = acc;
#endif
}

int bk_gemm_stages() { return bk_pipeline_stages; }
