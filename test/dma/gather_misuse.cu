// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: not %nvcc -ptx -arch=sm_80 -DNO_INDEX %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s --check-prefix=NO_INDEX
// RUN: not %nvcc -ptx -arch=sm_80 -DINDEX %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not %nvcc -ptx -arch=sm_80 -DEDGE %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s --check-prefix=EDGE
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
// A gather started without its index array, an index array given to a
// sequential copy, and start_edge on a gather are compile errors whose
// instantiation names the call's line in this file; the right calls compile.
#include <metacu/dma.cuh>

@meta auto gather = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 64, .rows = 16,
                                       .align = 16, .threads = 64});
using gather_t = @(gather.type());
@meta auto block = metacu::dma::plan({.bytes = 1024, .align = 16, .threads = 64});
using block_t = @(block.type());

extern "C" __global__ void k(const float* table, const int* idx, float* out) {
  __shared__ alignas(16) float tile[256];
  __shared__ metacu::dma::barrier bar;
  gather_t dma(bar);
  block_t seq(bar);
#if defined(NO_INDEX)
  dma.copy(tile, table);
#elif defined(INDEX)
  seq.copy(tile, table, idx);
#elif defined(EDGE)
  dma.start_edge(tile, table, 100);
#else
  dma.copy(tile, table, idx);
  seq.copy(tile, table);
#endif
  out[threadIdx.x] = tile[threadIdx.x];
}

// NO_INDEX: error: static assertion failed with "metacu::dma: an indirect copy (a gather) takes its index array: start(dst, src, idx)"
// NO_INDEX: at line 23 of {{.*}}gather_misuse.cu
// INDEX: error: static assertion failed with "metacu::dma: an index array is for indirect copies (pattern::indirect)"
// INDEX: at line 25 of {{.*}}gather_misuse.cu
// EDGE: error: static assertion failed with "metacu::dma: start_edge is for sequential and strided copies"
// EDGE: at line 27 of {{.*}}gather_misuse.cu
