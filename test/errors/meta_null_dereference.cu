// RUN: echo old > %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: grep -qx old %t.gen.cu
// A fault in meta code is an error at the meta statement that was running,
// not a crash of metacu; the existing output is left alone.
@meta int deref(const int* p) { return *p; }
@meta int fine = deref(&fine);
@meta int bad = deref(nullptr);
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: meta code crashed: segmentation fault (SIGSEGV)
// CHECK-NOT: PLEASE submit a bug report
__global__ void k(int* x) { x[0] = bad; }
