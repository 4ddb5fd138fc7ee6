// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An ordinary declaration of a meta name in the scope that declares it is
// a redeclaration: later uses would be ambiguous.
__global__ void k(int* x) {
  @meta int n = 4;
  int n = x[0];
// CHECK: [[FILE]]:[[@LINE-1]]:7: error: declaration of 'n' in ordinary code redeclares the meta variable 'n' of the same scope; rename one of them
}
