// RUN: %metacu %s -o %t.gen.cu --arch 75,80 2> %t.diag
// RUN: FileCheck %s < %t.diag
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// The library included only where nvcc compiles, as headers shared with
// host-only code include CUDA headers: its meta code and the declarations
// it shares with device code are read as nvcc's host pass reads them.
#ifdef __CUDACC__
#include <metacu/dma.cuh>
#endif

@meta auto stage = metacu::dma::plan({.bytes = 2048, .align = 16, .threads = 128});
@meta stage.diagnose();
using stage_t = @(stage.type());

__global__ void k(const float4* src, float4* dst) {
  __shared__ alignas(16) float4 tile[128];
  __shared__ metacu::dma::barrier bar;
  stage_t dma(bar);
  dma.copy(tile, src);
  dst[threadIdx.x] = tile[127 - threadIdx.x];
}
// CHECK: sm_80: cp.async, 16-byte accesses, 1 per thread
// PTX: cp.async.cg.shared.global
