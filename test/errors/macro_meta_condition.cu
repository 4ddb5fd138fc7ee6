// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A meta construct in a directive other than #define is refused with the
// reason: the preprocessor's conditions never see meta values.
#if @(1)
// CHECK: [[FILE]]:[[@LINE-1]]:5: error: meta constructs cannot appear inside preprocessor directives other than #define
#endif
__global__ void k(int* out) { out[0] = 1; }
