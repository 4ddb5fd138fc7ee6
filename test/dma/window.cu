// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -ptx -arch=sm_75 %t.gen.cu -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t.75.ptx
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// A 2D window with its halo out of an image whose pitch is known at run
// time (start_window), in a 2D block: a window inside the image is copied
// as a plain strided tile with the image's pitch (one bulk copy per row on
// sm_90, unguarded 16-byte cp.async on sm_80), one that crosses a border
// zero-fills what lies outside through cp.async's source size (sm_80 and
// sm_90) or registers (sm_75). The copying threads are numbered x fastest
// over the 2D block.
#include <metacu/dma.cuh>

// 40 rows of 144 floats (a 128 x 32 tile and a halo of 8 and 4).
@meta auto win = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 576, .rows = 40,
                                    .align = 16, .threads = 256});
using win_t = @(win.type());

extern "C" __global__ void window_k(const float* in, float* out, int w, int h) {
  __shared__ alignas(128) float tile[40 * 144];
  __shared__ metacu::dma::barrier bar;
  win_t dma(bar);
  const metacu::dma::image img{in, w * 4, w * 4, h};
  dma.start_window(tile, img, (int(blockIdx.x) * 128 - 8) * 4, int(blockIdx.y) * 32 - 4);
  dma.wait();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.y * 144 + threadIdx.x];
}

// SM75-LABEL: .entry window_k(
// SM75: mov.u32 %r{{[0-9]+}}, %tid.y;
// SM75-NOT: cp.async
// SM75: ld.global.v4.u32
// SM75: st.shared.v4.u32
// SM75: ld.global.u8
// SM75-NOT: cp.async
// SM75: bar.sync 0;

// SM80-LABEL: .entry window_k(
// SM80: mov.u32 %r{{[0-9]+}}, %tid.y;
// SM80-DAG: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// SM80-DAG: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM80-NOT: ld.global
// SM80: cp.async.wait_group 0;

// SM90-LABEL: .entry window_k(
// SM90: mbarrier.init.shared::cta.b64
// SM90-DAG: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// SM90-DAG: cp.async.cg.shared.global [%r{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// SM90-DAG: mbarrier.try_wait.parity.shared::cta.b64
// SM90-DAG: cp.async.wait_group 0;
// SM90-NOT: ld.global
