// Uses metacu's copy library, a dialect header of metacu's runtime.
#include <metacu/dma.cuh>

@meta auto stage = metacu::dma::plan({.bytes = 4096, .threads = 128, .align = 16});
using stage_t = @(stage.type());

__global__ void staged(const float4* src, float4* dst) {
  __shared__ alignas(128) float4 tile[256];
  __shared__ metacu::dma::barrier bar;
  stage_t dma(bar);
  dma.copy(tile, src + blockIdx.x * 256);
  dst[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
}
