// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A bracket of the user's left open where a dialect header is included
// (here the kernel's head moved above the #include) makes the header's
// code fail; the error is at that bracket, not only in the header (it was
// 11 errors, all in metacu/dma.cuh).
__global__ void k(float* dst) {
// CHECK: [[FILE]]:[[@LINE-1]]:31: error: this '{' is still open where 'metacu/dma.cuh' is included, so the header is read inside it (the first error there: metacu/dma.cuh:{{[0-9]+}}:{{[0-9]+}}: {{.*}})
// CHECK-NOT: {{^}}metacu/dma.cuh:{{.*}}error
#include <metacu/dma.cuh>
  dst[threadIdx.x] = @(1.0f);
}
