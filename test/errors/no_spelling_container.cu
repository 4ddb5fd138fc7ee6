// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
#include <vector>
@meta std::vector<int> sizes { 1, 2 };
__global__ void k(int* x) {
  x[0] = sizes;
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: meta value of type 'std::vector<int{{.*}}>' has no constant spelling in ordinary code
}
