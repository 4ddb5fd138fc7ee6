// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80,90 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A bulk copy forced on a block only 8-byte aligned is refused at the
// user's @meta line, not inside metacu/dma.cuh.
#include <metacu/dma.cuh>

@meta auto stage = metacu::dma::plan({.bytes = 4096, .align = 8, .threads = 128, .force = metacu::dma::mechanism::bulk});
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: metacu::dma: on sm_90: cp.async.bulk needs 16-byte alignment of every address, size and pitch (align or sizes too small)
// CHECK-NOT: dma.cuh
