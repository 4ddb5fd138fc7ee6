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
// is not used), and through registers on sm_75.
//
// sm_75: an access wholly inside is one 16-byte load; one cut by the edge
// loads each of its bytes that exist on its own, ORed into 32-bit words
// that start at zero, stored whole. The first version computed the valid
// bytes as max(min(left, 16), 0) and tested it against 16: ptxas (CUDA 13.0,
// and the r580 driver's JIT) fused the min, the max and the test into one
// VIMNMX.RELU whose predicate is true for any access with a valid byte, so
// an access cut by the edge took the whole 16-byte load and the bytes past
// the edge held data (seen on an H100, 2026-11-23; its SASS in docs/dma.md).
// The check below pins the form that ran exact there: no max with 0 before
// the test (a negative count is zeroed with the other out-of-range cases).
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

// SM75-LABEL: .entry edge_k(
// SM75-NOT: cp.async
// SM75-NOT: max.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0;
// SM75: ld.global.v4.u32
// SM75: ld.global.u8 [[B0:%r[0-9]+]], [%rd{{[0-9]+}}];
// SM75-NOT: max.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0;
// SM75: ld.global.u8 [[B3:%r[0-9]+]], [%rd{{[0-9]+}}+3];
// SM75-NEXT: shl.b32 [[S3:%r[0-9]+]], [[B3]], 24;
// SM75-NEXT: or.b32 {{%r[0-9]+}}, [[S3]], {{%r[0-9]+}};
// SM75-NOT: max.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0;
// SM75: ld.global.u8 [[B15:%r[0-9]+]], [%rd{{[0-9]+}}+15];
// SM75-NEXT: shl.b32 [[S15:%r[0-9]+]], [[B15]], 24;
// SM75-NEXT: or.b32 {{%r[0-9]+}}, [[S15]], {{%r[0-9]+}};
// SM75-NOT: max.s32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0;
// SM75: st.shared.v4.u32
// SM75-NOT: cp.async
// SM75: bar.sync 0;

// SM80: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM80: cp.async.commit_group;
// SM80: cp.async.wait_group 0;

// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier.try_wait
// SM90: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier.try_wait
// SM90: cp.async.wait_group 0;
