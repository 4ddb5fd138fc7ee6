// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
#include <cstdlib>
__global__ void k(int* x) {
  x[0] = 1;
  @meta std::abort();
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta code crashed: abort (SIGABRT)
}
