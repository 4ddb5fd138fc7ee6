// One 16x16x16 tile product through flashinfer's mma.h wrappers (ldmatrix,
// mma.sync where the architecture has them).
// mma.cuh uses uint32_t and std::is_same_v without including them.
#include <cstdint>
#include <type_traits>

#include <cuda_fp16.h>
#include <flashinfer/mma.cuh>

__global__ void tile_mma(const half *a, const half *b, float *c) {
  __shared__ alignas(16) half sa[16 * 16];
  __shared__ alignas(16) half sb[16 * 16];
  for (int i = threadIdx.x; i < 16 * 16; i += 32) {
    sa[i] = a[i];
    sb[i] = b[i];
  }
  __syncthreads();
  uint32_t ra[4], rb[4];
  float rc[8];
  const int lane = threadIdx.x;
  flashinfer::mma::ldmatrix_m8n8x4(ra, sa + (lane % 16) * 16 + (lane / 16) * 8);
  flashinfer::mma::ldmatrix_m8n8x4(rb, sb + (lane % 16) * 16 + (lane / 16) * 8);
  flashinfer::mma::mma_sync_m16n16k16_row_col_f16f16f32<
      half, flashinfer::mma::MMAMode::kInit>(rc, ra, rb);
  for (int i = 0; i < 8; ++i)
    c[lane * 8 + i] = rc[i];
}
