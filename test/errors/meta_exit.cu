// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// exit(0) in meta code must not look like a successful run to the build.
#include <cstdlib>
__global__ void k(int* x) {
  x[0] = 1;
  @meta std::exit(0);
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta code ended the process (exit status 0) before the expansion finished
}
