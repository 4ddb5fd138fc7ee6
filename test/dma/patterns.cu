// RUN: %metacu %s -o %t.gen.cu --arch 80,90 2> %t.diag
// RUN: FileCheck %s --check-prefix=DIAG < %t.diag
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// The mechanism of each pattern follows the rules of each architecture,
// decided at generation time: a strided tile whose rows are not 16-byte
// multiples falls back to cp.async on sm_90; one with 16-byte rows and
// pitches takes one bulk copy per row; a gather uses cp.async per element;
// a forced mechanism wins; producer warps signal consumers at named barriers.
#include <metacu/dma.cuh>

// 34 rows of 34 floats (136 bytes: 8-byte accesses) out of a 1024-float image.
@meta auto halo = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 136, .rows = 34,
                                     .src_pitch = 4096, .dst_pitch = 144, .align = 16, .threads = 256});
@meta halo.diagnose();
using halo_t = @(halo.type());
// 32 rows of 128 floats.
@meta auto rows = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 512, .rows = 32,
                                     .src_pitch = 4096, .align = 16, .threads = 128});
@meta rows.diagnose();
using rows_t = @(rows.type());
// 64 gathered float4.
@meta auto gather = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 16, .rows = 64,
                                       .align = 16, .threads = 64});
using gather_t = @(gather.type());
// cp.async forced where bulk copies would be chosen.
@meta auto forced = metacu::dma::plan({.bytes = 8192, .align = 16, .threads = 128,
                                       .force = metacu::dma::mechanism::cp_async});
using forced_t = @(forced.type());
// Warp 0 copies for a block of 4 warps.
@meta auto producer = metacu::dma::plan({.bytes = 4096, .align = 16, .threads = 32, .block_threads = 128,
                                         .barrier_id = 3, .force = metacu::dma::mechanism::cp_async});
using producer_t = @(producer.type());

extern "C" __global__ void halo_k(const float* src, float* dst) {
  __shared__ alignas(16) float tile[34 * 36];
  __shared__ metacu::dma::barrier bar;
  halo_t dma(bar);
  dma.copy(tile, src);
  dst[threadIdx.x] = tile[threadIdx.x * 3];
}
extern "C" __global__ void rows_k(const float* src, float* dst) {
  __shared__ alignas(128) float tile[32 * 128];
  __shared__ metacu::dma::barrier bar;
  rows_t dma(bar);
  dma.copy(tile, src);
  dst[threadIdx.x] = tile[threadIdx.x * 5];
}
extern "C" __global__ void gather_k(const float4* src, const int* idx, float4* dst) {
  __shared__ alignas(16) float4 tile[64];
  __shared__ metacu::dma::barrier bar;
  gather_t dma(bar);
  dma.copy(tile, src, idx);
  dst[threadIdx.x] = tile[63 - threadIdx.x];
}
extern "C" __global__ void forced_k(const float4* src, float4* dst) {
  __shared__ alignas(16) float4 tile[512];
  __shared__ metacu::dma::barrier bar;
  forced_t dma(bar);
  dma.copy(tile, src);
  dst[threadIdx.x] = tile[511 - threadIdx.x];
}
extern "C" __global__ void producer_k(const float4* src, float4* dst) {
  __shared__ alignas(16) float4 tile[256];
  __shared__ metacu::dma::barrier bar;
  producer_t dma(bar);
  if (dma.producer()) {
    dma.copy(tile, src);
  } else {
    dma.consumer_wait();
    dst[threadIdx.x] = tile[threadIdx.x];
    dma.consumer_release();
  }
}

// DIAG: metacu::dma strided copy: 136 bytes x 34, pitch 4096 -> 144
// DIAG-NEXT: sm_80: cp.async, 8-byte accesses, 3 per thread, 24 bytes in flight per thread, 0 data registers, edge guarded
// DIAG-NEXT: sm_90: cp.async, 8-byte accesses, 3 per thread, {{.*}}; sm_90+: not 16-byte aligned, so no bulk copy; cp.async
// DIAG: metacu::dma strided copy: 512 bytes x 32, pitch 4096 -> 512
// DIAG-NEXT: sm_80: cp.async, 16-byte accesses, 8 per thread
// DIAG-NEXT: sm_90: cp.async.bulk + mbarrier, 512-byte copies, 1 per thread, 512 bytes in flight per thread, 0 data registers, edge guarded

// SM80-LABEL: .entry halo_k(
// SM80: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8;
// SM80-LABEL: .entry rows_k(
// SM80: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM80-LABEL: .entry gather_k(
// SM80: ld.global{{.*}}.u32
// SM80: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM80-LABEL: .entry forced_k(
// SM80-LABEL: .entry producer_k(
// SM80: bar.sync 3, 128;
// SM80: bar.arrive 4, 128;
// SM80: cp.async.cg.shared.global
// SM80: bar.arrive 3, 128;

// SM90-LABEL: .entry halo_k(
// SM90-NOT: cp.async.bulk
// SM90: cp.async.ca.shared.global [{{.*}}], [{{.*}}], 8;
// SM90-NOT: cp.async.bulk
// SM90-LABEL: .entry rows_k(
// SM90: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 16384;
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], %r{{[0-9]+}}, [{{.*}}];
// SM90-LABEL: .entry gather_k(
// SM90-NOT: cp.async.bulk
// SM90: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM90-LABEL: .entry forced_k(
// SM90-NOT: cp.async.bulk
// SM90-NOT: mbarrier
// SM90: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM90-NOT: cp.async.bulk
// SM90-LABEL: .entry producer_k(
