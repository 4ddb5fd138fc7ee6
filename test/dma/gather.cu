// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90 2> %t.diag
// RUN: FileCheck %s --check-prefix=DIAG < %t.diag
// RUN: %nvcc -ptx -arch=sm_75 %t.gen.cu -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t.75.ptx
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// A gather of 32 rows of 64 bytes out of a table whose rows are 256 bytes
// apart (row idx[e] of the table to element e), by 64 threads: register
// staging on sm_75; on sm_80 and sm_90 two 16-byte cp.async per thread,
// each from the row its index names, straight-line (no branch in the
// kernel). With bulk copies forced, sm_90 issues one cp.async.bulk per
// gathered row (the first 8 threads, each from its own index) and sm_80
// keeps cp.async.
#include <metacu/dma.cuh>

@meta auto gather = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 64, .rows = 32,
                                       .src_pitch = 256, .align = 16, .threads = 64});
@meta gather.diagnose();
using gather_t = @(gather.type());
@meta auto rows = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 512, .rows = 8,
                                     .align = 16, .threads = 64, .force = metacu::dma::mechanism::bulk});
@meta rows.diagnose();
using rows_t = @(rows.type());

extern "C" __global__ void gather_k(const float* table, const int* idx, float* out) {
  __shared__ alignas(16) float tile[32 * 16];
  __shared__ metacu::dma::barrier bar;
  gather_t dma(bar);
  dma.copy(tile, table, idx + blockIdx.x * 32);
  out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x * 3];
}
extern "C" __global__ void rows_k(const float* table, const int* idx, float* out) {
  __shared__ alignas(128) float tile[8 * 128];
  __shared__ metacu::dma::barrier bar;
  rows_t dma(bar);
  dma.copy(tile, table, idx + blockIdx.x * 8);
  out[blockIdx.x * 64 + threadIdx.x] = tile[threadIdx.x * 5];
}

// DIAG: metacu::dma indirect copy: 64 bytes x 32, pitch 256 -> 64, align 16, 64 of 64 threads from 0
// DIAG-NEXT: sm_75: registers (LDG/STS), 16-byte accesses, 2 per thread, 32 bytes in flight per thread, 8 data registers, edge unguarded
// DIAG-NEXT: sm_80: cp.async, 16-byte accesses, 2 per thread, 32 bytes in flight per thread, 0 data registers, edge unguarded
// DIAG-NEXT: sm_90: cp.async, 16-byte accesses, 2 per thread, 32 bytes in flight per thread, 0 data registers, edge unguarded; sm_90+: a gather; cp.async
// DIAG: metacu::dma indirect copy: 512 bytes x 8, pitch 512 -> 512
// DIAG: sm_90: cp.async.bulk + mbarrier, 512-byte copies, 1 per thread, 512 bytes in flight per thread, 0 data registers, edge guarded {{.*}}; forced by the spec

// Each access: the row's index loaded, scaled by the table's pitch.
// SM75-LABEL: .entry gather_k(
// SM75-NOT: cp.async
// SM75: ld.global.u32 [[I0:%r[0-9]+]]
// SM75: mul.wide.s32 {{%rd[0-9]+}}, [[I0]], 256;
// SM75: ld.global.v4.u32
// SM75: ld.global.u32 [[I1:%r[0-9]+]]
// SM75: mul.wide.s32 {{%rd[0-9]+}}, [[I1]], 256;
// SM75: ld.global.v4.u32
// SM75: st.shared.v4.u32
// SM75: st.shared.v4.u32
// SM75-NOT: cp.async
// SM75-LABEL: .entry rows_k(
// SM75-NOT: cp.async

// SM80-LABEL: .entry gather_k(
// SM80-NOT: bra
// SM80: ld.global.u32 [[I0:%r[0-9]+]]
// SM80: mul.wide.s32 {{%rd[0-9]+}}, [[I0]], 256;
// SM80: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM80-NOT: bra
// SM80: ld.global.u32 [[I1:%r[0-9]+]]
// SM80: mul.wide.s32 {{%rd[0-9]+}}, [[I1]], 256;
// SM80: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM80-NOT: bra
// SM80-NOT: cp.async.cg
// SM80: cp.async.commit_group;
// SM80: cp.async.wait_group 0;
// SM80-NOT: bra
// SM80: ret;
// SM80-LABEL: .entry rows_k(
// SM80-NOT: cp.async.bulk
// SM80: cp.async.cg.shared.global
// SM80-NOT: cp.async.bulk
// SM80: ret;

// SM90-LABEL: .entry gather_k(
// SM90-NOT: bra
// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier
// SM90: ld.global.u32 [[I0:%r[0-9]+]]
// SM90: mul.wide.s32 {{%rd[0-9]+}}, [[I0]], 256;
// SM90: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM90-NOT: bra
// SM90: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM90-NOT: bra
// SM90-NOT: cp.async.cg
// SM90: cp.async.wait_group 0;
// SM90-NOT: bra
// SM90: ret;
// The bulk copies: 4096 bytes expected on the mbarrier, then threads 0-7
// each copy the row of their index (idx * 128 floats = 512 bytes).
// SM90-LABEL: .entry rows_k(
// SM90: mbarrier.init.shared::cta.b64
// SM90: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 4096;
// SM90: setp.gt.s32 {{%p[0-9]+}}, {{%r[0-9]+}}, 7;
// SM90: ld.global.u32 [[R:%r[0-9]+]]
// SM90: mul.wide.s32 {{%rd[0-9]+}}, [[R]], 128;
// SM90: mov.u32 {{%r[0-9]+}}, 512;
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// SM90-NOT: cp.async.bulk
// SM90: mbarrier.try_wait.parity.shared::cta.b64
