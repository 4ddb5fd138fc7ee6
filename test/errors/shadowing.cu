// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta int n = 4;
__global__ void k(int* x) {
  int n = x[0];
// CHECK: [[FILE]]:[[@LINE-1]]:7: error: declaration of 'n' in ordinary code shadows the meta variable 'n'; rename one of them
}
