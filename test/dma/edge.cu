// RUN: %metacu %s -o %t.gen.cu --arch 80,90
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// RUN: %metacu %s -o %t.75.gen.cu --arch 75
// RUN: not %nvcc -ptx -arch=sm_75 %t.75.gen.cu -o %t.75.ptx 2>&1 | FileCheck %s --check-prefix=SM75
// A tile cut short at run time (start_edge): each access copies the bytes
// that exist and zero-fills the rest, through cp.async's source-size operand
// on sm_80 and sm_90 (where the bulk copy engine, which cannot zero-fill,
// is not used). sm_75 has no cp.async: its instantiation is a compile error
// that says so, pointing at the use.
#include <metacu/dma.cuh>

@meta auto rows = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 512, .rows = 8,
                                     .src_pitch = 4096, .align = 16, .threads = 128});
using rows_t = @(rows.type());

extern "C" __global__ void edge_k(const float* src, float* dst, int valid_bytes, int valid_rows) {
  __shared__ alignas(128) float tile[8 * 128];
  __shared__ metacu::dma::barrier bar;
  rows_t dma(bar);
  dma.start_edge(tile, src, valid_bytes, valid_rows);
  dma.wait();
  dst[threadIdx.x] = tile[1023 - threadIdx.x];
}

// SM75: error: static assertion failed with "metacu::dma: start_edge needs cp.async (sm_80 or newer, 4-byte alignment)
// SM75: at line [[#@LINE-6]] of {{.*}}edge.cu

// SM80: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM80: cp.async.commit_group;
// SM80: cp.async.wait_group 0;

// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier.try_wait
// SM90: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier.try_wait
// SM90: cp.async.wait_group 0;
