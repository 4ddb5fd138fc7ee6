// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu && cp %s %t/k.cu.orig
// RUN: echo '#define SCALE 2' > %t/scale.h && cp %t/scale.h %t/scale.h.orig
// The report is never written over the kernel's source or a header it
// includes (as expand's output is not).
// RUN: not %metacu report %t/k.cu --arch 80 -o %t/k.cu 2>&1 | FileCheck %s --check-prefix=SOURCE
// SOURCE: metacu: error: cannot write '{{.*}}k.cu': a file this run reads
// RUN: not %metacu report %t/k.cu --arch 80 -o %t/scale.h 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: metacu: error: cannot write '{{.*}}scale.h': {{.*}}a file this run reads
// RUN: cmp %t/k.cu %t/k.cu.orig && cmp %t/scale.h %t/scale.h.orig
#include "scale.h"
__global__ void k(float* x) { x[threadIdx.x] *= SCALE; }
