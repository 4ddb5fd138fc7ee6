// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: not %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s
// start_window on a sequential copy is a compile error whose instantiation
// names the call's line in this file.
#include <metacu/dma.cuh>

@meta auto block = metacu::dma::plan({.bytes = 4096, .align = 16, .threads = 128});
using block_t = @(block.type());

extern "C" __global__ void k(const float* in, float* out, int w, int h) {
  __shared__ alignas(128) float tile[1024];
  __shared__ metacu::dma::barrier bar;
  block_t dma(bar);
  dma.start_window(tile, metacu::dma::image{in, w * 4, w * 4, h}, 0, 0);
  dma.wait();
  out[threadIdx.x] = tile[threadIdx.x];
}

// CHECK: error: static assertion failed with "metacu::dma: start_window is for strided copies"
// CHECK: at line [[#@LINE-6]] of {{.*}}window_misuse.cu
