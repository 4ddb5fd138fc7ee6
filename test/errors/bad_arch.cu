// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 70,80 2>&1 | FileCheck %s
// RUN: not test -e %t.gen.cu
// CHECK: metacu: error: architecture '70' is older than sm_75, the oldest nvcc 13 supports
__global__ void k() {}
