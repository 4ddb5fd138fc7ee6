// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80,90 -DBULK 2>&1 | FileCheck %s --check-prefix=BULK -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DPITCH 2>&1 | FileCheck %s --check-prefix=PITCH -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75 -DTILE 2>&1 | FileCheck %s --check-prefix=TILE -DFILE=%s
// RUN: not test -e %t.gen.cu
// A gather's description refused at the user's @meta line: bulk copies
// forced on rows only 8-byte aligned, a table pitch smaller than the row,
// and gathered rows that do not fit in the shared memory given.
#include <metacu/dma.cuh>

#if defined(BULK)
@meta auto g = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 520, .rows = 16, .align = 16,
                                  .threads = 128, .force = metacu::dma::mechanism::bulk});
// BULK: [[FILE]]:[[@LINE-2]]:1: error: metacu::dma: on sm_90: cp.async.bulk needs 16-byte alignment of every address, size and pitch (align or sizes too small)
// BULK-NOT: dma.cuh
#elif defined(PITCH)
@meta auto g = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 512, .rows = 16,
                                  .src_pitch = 256, .align = 16, .threads = 128});
// PITCH: [[FILE]]:[[@LINE-2]]:1: error: metacu::dma: a pitch is smaller than the row
#elif defined(TILE)
@meta auto g = metacu::dma::plan({.kind = metacu::dma::pattern::indirect, .bytes = 1024, .rows = 64, .align = 16,
                                  .threads = 128, .smem_bytes = 48 * 1024});
// TILE: [[FILE]]:[[@LINE-2]]:1: error: metacu::dma: the tile does not fit in the shared memory given (smem_bytes)
#endif
