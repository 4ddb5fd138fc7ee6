// RUN: %metacu %s -o %t.gen.cu --arch 80,90 2> %t.diag
// RUN: FileCheck %s --check-prefix=DIAG < %t.diag
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// A window staged through a tensor map (image_map, a __grid_constant__
// parameter built on the host by map()): on sm_90 one thread issues one
// cp.async.bulk.tensor for the whole window, addressed through the
// parameter, with the window's element coordinates; the rows-per-copy
// fallback (bulk copies inside, cp.async zero-fill across a border) stays
// for a map that was not encoded. sm_80 has no tensor copy. A window whose
// rows are padded in shared memory cannot be one tensor copy: the plan says
// why, and the kernel has none.
#include <metacu/dma.cuh>

@meta auto win = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 576, .rows = 40,
                                    .align = 16, .threads = 256});
@meta win.diagnose();
using win_t = @(win.type());
@meta auto padded = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 576, .rows = 40,
                                       .dst_pitch = 592, .align = 16, .threads = 256});
@meta padded.diagnose();
using padded_t = @(padded.type());

extern "C" __global__ void tensor_k(const __grid_constant__ metacu::dma::image_map src, float* out) {
  __shared__ alignas(128) float tile[40 * 144];
  __shared__ metacu::dma::barrier bar;
  win_t dma(bar);
  dma.start_window(tile, src, (int(blockIdx.x) * 128 - 8) * 4, int(blockIdx.y) * 32 - 4);
  dma.wait();
  out[threadIdx.x] = tile[threadIdx.x * 7];
}

extern "C" __global__ void padded_k(const __grid_constant__ metacu::dma::image_map src, float* out) {
  __shared__ alignas(128) float tile[40 * 148];
  __shared__ metacu::dma::barrier bar;
  padded_t dma(bar);
  dma.start_window(tile, src, (int(blockIdx.x) * 128 - 8) * 4, int(blockIdx.y) * 32 - 4);
  dma.wait();
  out[threadIdx.x] = tile[threadIdx.x * 7];
}

// DIAG: metacu::dma strided copy: 576 bytes x 40, pitch 576 -> 576
// DIAG: sm_90: cp.async.bulk + mbarrier
// DIAG-NEXT: start_window with an image_map: one cp.async.bulk.tensor for the window, zero fill outside the image by the copy engine
// DIAG: metacu::dma strided copy: 576 bytes x 40, pitch 576 -> 592
// DIAG: sm_90: cp.async.bulk + mbarrier
// DIAG-NEXT: start_window with an image_map: no tensor copy (the copy engine writes the window's rows packed: dst_pitch must equal bytes)

// SM80-NOT: cp.async.bulk
// SM80-NOT: mbarrier

// SM90-LABEL: .entry tensor_k(
// SM90: mov.b64 [[PARAM:%rd[0-9]+]], tensor_k_param_0;
// SM90: mbarrier.init.shared::cta.b64
// SM90: mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r{{[0-9]+}}], 23040;
// SM90: cvta.param.u64 [[MAP:%rd[0-9]+]], [[PARAM]];
// SM90: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r{{[0-9]+}}], {{\[}}[[MAP]], {%r{{[0-9]+}}, %r{{[0-9]+}}}], [%r{{[0-9]+}}];
// SM90: mbarrier.try_wait.parity.shared::cta.b64
// SM90-LABEL: .entry padded_k(
// SM90-NOT: cp.async.bulk.tensor
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// SM90-NOT: cp.async.bulk.tensor
