// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -ptx -arch=sm_75 %t.gen.cu -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=SM75 < %t.75.ptx
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.80.ptx
// RUN: FileCheck %s --check-prefix=SM80 < %t.80.ptx
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t.90.ptx
// Each cache hint as each architecture lowers it (and ptxas, through
// nvcc -ptx's checks, accepts): register staging's loads take the
// read-only path, the streaming or the cache-all qualifier; 16-byte
// cp.async and bulk copies take an L2 eviction policy made by createpolicy;
// non_coherent and no_allocate leave cp.async.cg (no L1 allocation) as is.
#include <metacu/dma.cuh>

@meta for (int h = 1; h < 5; ++h) {
  @meta auto p = metacu::dma::plan({.bytes = 4096, .align = 16, .threads = 128, .hint = metacu::dma::cache(h)});
  extern "C" __global__ void @("k_" + std::string(metacu::dma::cache_name(metacu::dma::cache(h))))(const float4* src,
                                                                                                     float4* dst) {
    __shared__ alignas(128) float4 tile[256];
    __shared__ metacu::dma::barrier bar;
    @(p.type()) dma(bar);
    dma.copy(tile, src + blockIdx.x * 256);
    dst[blockIdx.x * 256 + threadIdx.x] = tile[255 - threadIdx.x];
  }
}

// SM75-LABEL: .entry k_non_coherent(
// SM75-COUNT-2: ld.global.nc.v4.u32
// SM75-LABEL: .entry k_evict_first(
// SM75-COUNT-2: ld.global.cs.v4.u32
// SM75-LABEL: .entry k_evict_last(
// SM75-COUNT-2: ld.global.ca.v4.u32
// SM75-LABEL: .entry k_no_allocate(
// SM75-COUNT-2: ld.global.nc.v4.u32

// SM80-LABEL: .entry k_non_coherent(
// SM80-NOT: createpolicy
// SM80-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;
// SM80-LABEL: .entry k_evict_first(
// SM80: createpolicy.fractional.L2::evict_first.b64 [[P:%rd[0-9]+]], 1.0;
// SM80: cp.async.cg.shared.global.L2::cache_hint [{{.*}}], [{{.*}}], 16, [[P]];
// SM80-LABEL: .entry k_evict_last(
// SM80: createpolicy.fractional.L2::evict_last.b64 [[Q:%rd[0-9]+]], 1.0;
// SM80: cp.async.cg.shared.global.L2::cache_hint [{{.*}}], [{{.*}}], 16, [[Q]];
// SM80-LABEL: .entry k_no_allocate(
// SM80-NOT: createpolicy
// SM80-COUNT-2: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16;

// SM90-LABEL: .entry k_non_coherent(
// SM90-NOT: createpolicy
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], {{%r[0-9]+}}, [{{.*}}];
// SM90-LABEL: .entry k_evict_first(
// SM90: createpolicy.fractional.L2::evict_first.b64 [[P:%rd[0-9]+]], 1.0;
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [{{.*}}], [{{.*}}], {{%r[0-9]+}}, [{{.*}}], [[P]];
// SM90-LABEL: .entry k_evict_last(
// SM90: createpolicy.fractional.L2::evict_last.b64 [[Q:%rd[0-9]+]], 1.0;
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [{{.*}}], [{{.*}}], {{%r[0-9]+}}, [{{.*}}], [[Q]];
// SM90-LABEL: .entry k_no_allocate(
// SM90-NOT: createpolicy
// SM90: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}], {{%r[0-9]+}}, [{{.*}}];
