// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A meta statement with no ';' (here a comment's words, a line break
// inserted before its '@meta') ran on through the #include below it, whose
// declarations became part of its text: Clang, recovering from the broken
// declaration inside dma.cuh's namespace, crashed metacu (a segmentation
// fault and a stack dump, no error at the user's line).
@meta code at generation time
// CHECK: [[FILE]]:[[@LINE-1]]:7: error: this meta statement runs into the #include below it: a meta statement ends with ';' (is one missing?)
#include <metacu/dma.cuh>
static int v;
__global__ void k(int* out) { out[0] = 1; }
int main() { return 0; }
