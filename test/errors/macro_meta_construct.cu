// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s --match-full-lines
// RUN: not test -e %t.gen.cu
// An error inside a meta macro's expansion is shown at the use, on the
// user's line, with a note at the macro's definition.
#include <map>
const std::map<int, int> unroll{{75, 2}};
#define UNROLLED(stmt)                                                         \
  @meta for (int i = 0; i < unroll.at((int)__nvvm_arch_of_this_pass); ++i) stmt
__global__ void k(int* out) {
  UNROLLED(out[i] = 1);
}
// CHECK: [[FILE]]:[[@LINE-2]]:3: error: {{.*}}
// CHECK: [[FILE]]:8:9: note: in the expansion of macro 'UNROLLED', defined here
