// The convolution of samples/convolution (17x17 filter in constant memory,
// zero outside the image) written as Kernel Tuner expects a kernel: plain
// CUDA whose tuning parameters are macros it defines per configuration
// (block_size_x/y, tile_size_x/y, use_padding, read_only), compiled once per
// configuration. Used by scripts/kt/compare.py to time Kernel Tuner on the
// same space as `metacu tune`.
#define RADIUS 8
#define TAPS (2 * RADIUS + 1)

__constant__ float d_filter[TAPS * TAPS];

#if read_only
#define LOAD(p) __ldg(p)
#else
#define LOAD(p) (*(p))
#endif

extern "C" __global__ void convolution_kernel(float *out, const float *in, int w, int h) {
  constexpr int out_w = block_size_x * tile_size_x;
  constexpr int out_h = block_size_y * tile_size_y;
  constexpr int in_w = out_w + 2 * RADIUS;
  constexpr int in_h = out_h + 2 * RADIUS;
  constexpr int stride = in_w + use_padding;
  __shared__ float tile[in_h * stride];

  int x0 = blockIdx.x * out_w - RADIUS, y0 = blockIdx.y * out_h - RADIUS;
  for (int i = threadIdx.y; i < in_h; i += block_size_y)
    for (int j = threadIdx.x; j < in_w; j += block_size_x) {
      int x = x0 + j, y = y0 + i;
      tile[i * stride + j] = x >= 0 && x < w && y >= 0 && y < h ? LOAD(in + (size_t)y * w + x) : 0.0f;
    }
  __syncthreads();

  float sum[tile_size_y][tile_size_x] = {};
#pragma unroll
  for (int fy = 0; fy < TAPS; ++fy)
#pragma unroll
    for (int fx = 0; fx < TAPS; ++fx)
#pragma unroll
      for (int ty = 0; ty < tile_size_y; ++ty)
#pragma unroll
        for (int tx = 0; tx < tile_size_x; ++tx)
          sum[ty][tx] += d_filter[fy * TAPS + fx] *
                         tile[(threadIdx.y + ty * block_size_y + fy) * stride + threadIdx.x + tx * block_size_x + fx];

#pragma unroll
  for (int ty = 0; ty < tile_size_y; ++ty)
#pragma unroll
    for (int tx = 0; tx < tile_size_x; ++tx) {
      int x = blockIdx.x * out_w + threadIdx.x + tx * block_size_x;
      int y = blockIdx.y * out_h + threadIdx.y + ty * block_size_y;
      if (x < w && y < h)
        out[(size_t)y * w + x] = sum[ty][tx];
    }
}
