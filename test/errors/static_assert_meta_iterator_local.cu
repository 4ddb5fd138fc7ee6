// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A static_assert that compares a meta iterator and also names a local is
// not meta code: the generator cannot see the local, and nvcc cannot see
// the iterator. The error is at the iterator and says what would work.
#include <map>
const std::map<int, int> widths{{80, 4}};

__global__ void k(int *y) {
  @meta auto it = widths.find(80);
  constexpr int lanes = 4;
  static_assert(it != widths.end() && lanes == 4, "found");
// CHECK: [[FILE]]:[[@LINE-1]]:17: error: meta value of type '{{.*}}' has no constant spelling in ordinary code ({{.*}}); a static_assert on it is checked at generation time if its condition names only meta variables and what meta code sees (no local, member or template parameter)
  y[0] = lanes;
}
