// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -include %S/Inputs/unexpanded/kernels.cuh 2>&1 | FileCheck %s --check-prefix=DIRECT -DDIR=%S
// RUN: not test -e %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -include %S/Inputs/unexpanded/relay.h 2>&1 | FileCheck %s --check-prefix=RELAY -DDIR=%S
// RUN: not test -e %t.gen.cu
// A dialect header given with -include: nvcc would read it before the
// input through the same -include, so no splice can come first. Refused,
// directly or through a plain header given so.
__global__ void k(int* x) { x[0] = 1; }
// DIRECT: metacu: error: -include '[[DIR]]/Inputs/unexpanded/kernels.cuh': header contains meta constructs (at [[DIR]]/Inputs/unexpanded/kernels.cuh:3:1), which nvcc would read as they are through the same -include; metacu expands the dialect headers the input includes: #include it at the top of the input instead of -include
// RELAY: [[DIR]]/Inputs/unexpanded/relay.h:3:10: error: header '[[DIR]]/Inputs/unexpanded/kernels.cuh' contains meta constructs
// RELAY-SAME: ('[[DIR]]/Inputs/unexpanded/relay.h' is read through -include)
