// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu && mkfifo %t/fifo.json
// RUN: not %metacu %t/k.cu -o %t/k.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%t/k.cu
// RUN: not test -e %t/k.gen.cu
// A FIFO (or a device) as a data file would block the build forever.
@meta auto table = metacu::load_json("fifo.json");
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: cannot read 'fifo.json': not a regular file
__global__ void k(int* x) { x[0] = 1; }
