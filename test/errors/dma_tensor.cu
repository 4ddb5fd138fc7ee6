// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80,90 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A tensor copy forced on a window whose rows are padded in shared memory
// (the copy engine writes them packed) is refused at the user's @meta line.
#include <metacu/dma.cuh>

@meta auto win = metacu::dma::plan({.kind = metacu::dma::pattern::strided, .bytes = 576, .rows = 40, .dst_pitch = 592, .align = 16, .threads = 256, .force = metacu::dma::mechanism::tensor});
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: metacu::dma: on sm_90: the copy engine writes the window's rows packed: dst_pitch must equal bytes
// CHECK-NOT: dma.cuh
