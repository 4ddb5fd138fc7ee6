// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -ptx -arch=sm_75 %t.gen.cu -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t.75.ptx
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// A tile cut short at run time (start_edge): each access copies the bytes
// that exist and zero-fills the rest, through cp.async's source-size operand
// on sm_80 and sm_90 (where the bulk copy engine, which cannot zero-fill,
// is not used), through registers with byte loads for a partial access on
// sm_75.
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

// SM75-NOT: cp.async
// SM75: ld.global.u8
// SM75: st.shared.v4.u32

// SM80: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM80: cp.async.commit_group;
// SM80: cp.async.wait_group 0;

// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier.try_wait
// SM90: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier.try_wait
// SM90: cp.async.wait_group 0;
