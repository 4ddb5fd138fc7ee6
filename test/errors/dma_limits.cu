// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75 -DTILE 2>&1 | FileCheck %s --check-prefix=TILE -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75 -DTHREADS 2>&1 | FileCheck %s --check-prefix=THREADS -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DALIGN 2>&1 | FileCheck %s --check-prefix=ALIGN -DFILE=%s
// RUN: not test -e %t.gen.cu
// The plan's checks, each at the user's line: a tile larger than the shared
// memory given, a thread count the pattern cannot use, an alignment too
// small for the forced mechanism.
#include <metacu/dma.cuh>

#if defined(TILE)
@meta auto halo = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 1024, .rows = 64,
                                     .src_pitch = 8192, .align = 16, .threads = 256, .smem_bytes = 48 * 1024});
// TILE: [[FILE]]:[[@LINE-2]]:1: error: metacu::dma: the tile does not fit in the shared memory given (smem_bytes)
#elif defined(THREADS)
@meta auto ws = metacu::dma::plan({.bytes = 4096, .align = 16, .threads = 48, .block_threads = 256});
// THREADS: [[FILE]]:[[@LINE-1]]:1: error: metacu::dma: warp specialization needs whole producer warps
#elif defined(ALIGN)
@meta auto odd = metacu::dma::plan({.bytes = 4094, .align = 2, .threads = 64, .force = metacu::dma::mechanism::cp_async});
// ALIGN: [[FILE]]:[[@LINE-1]]:1: error: metacu::dma: on sm_80: cp.async needs 4-byte alignment
#endif
