// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A head left open is reported where Clang reports it: at the '{' that
// cannot appear there, naming the unmatched '('.
__global__ void k(int* out) {
  @meta for (int i = 0; i < 4; ++i {
// CHECK: [[FILE]]:[[@LINE-1]]:36: error: expected ')' before this '{' (to match the '(' of '@meta for' at line [[@LINE-1]], column 13)
    out[i] = i;
  }
}
