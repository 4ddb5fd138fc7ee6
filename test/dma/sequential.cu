// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90 2> %t.diag
// RUN: FileCheck %s --check-prefix=DIAG < %t.diag
// RUN: %nvcc -ptx -arch=sm_75 %t.gen.cu -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t.75.ptx
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: grep -c 'cp.async.cg.shared.global' %t.80.ptx | FileCheck %s --check-prefix=COUNT80
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// A 16 KiB block staged by 256 threads, 16-byte aligned: register staging
// on sm_75, cp.async on sm_80 (straight-line: four 16-byte copies per
// thread, no branch at all in the kernel), the bulk copy engine on sm_90.
#include <metacu/dma.cuh>

@meta auto stage = metacu::dma::plan({.bytes = 16384, .threads = 256, .align = 16});
@meta stage.diagnose();
using stage_t = @(stage.type());

__global__ void staged(const float4* src, float4* dst) {
  __shared__ alignas(128) float4 tile[1024];
  __shared__ metacu::dma::barrier bar;
  stage_t dma(bar);
  dma.copy(tile, src + blockIdx.x * 1024);
  dst[blockIdx.x * 1024 + threadIdx.x] = tile[1023 - threadIdx.x];
}

// DIAG: metacu::dma sequential copy: 16384 bytes x 1
// DIAG-NEXT: sm_75: registers (LDG/STS), 16-byte accesses, 4 per thread, 64 bytes in flight per thread, 16 data registers, edge unguarded
// DIAG-NEXT: sm_80: cp.async, 16-byte accesses, 4 per thread, 64 bytes in flight per thread, 0 data registers, edge unguarded
// DIAG-NEXT: sm_90: cp.async.bulk + mbarrier, 4096-byte copies, 1 per thread

// SM75-NOT: cp.async
// SM75: ld.global.v4.u32
// SM75: ld.global.v4.u32
// SM75: ld.global.v4.u32
// SM75: ld.global.v4.u32
// SM75: st.shared.v4.u32
// SM75-NOT: cp.async

// SM80-LABEL: .entry
// SM80-NOT: bra
// SM80: cp.async.cg.shared.global [{{.*}}], 16;
// SM80-NOT: bra
// SM80: cp.async.commit_group;
// SM80: cp.async.wait_group 0;
// SM80-NOT: bra
// SM80: ret;
// COUNT80: {{^}}4{{$}}

// SM90: mbarrier.init.shared::cta.b64 [{{.*}}], 1;
// SM90: mbarrier.arrive.expect_tx.shared::cta.b64 _, [{{.*}}], 16384;
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// SM90: mbarrier.try_wait.parity.shared::cta.b64
// SM90-NOT: cp.async.cg
