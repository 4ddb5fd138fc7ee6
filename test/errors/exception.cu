// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// An exception escaping meta code names the statement and carries what().
#include <map>
const std::map<int, int> table { {80, 1} };
__global__ void k(int* x) {
  @meta int n = table.at(75);
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: uncaught exception in meta code: map::at
  x[0] = n;
}
