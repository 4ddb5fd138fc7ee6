// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80,90 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// Circle's article: the map has no entry at or above sm_90, and the
// static_assert on the meta iterator fails at generation time, at its line,
// with its message.
#include <map>
struct details_t {
  int nt, vt;
};
const std::map<int, details_t> kernel_config{{75, {128, 4}}, {80, {256, 8}}};

__global__ void kernel(float *y) {
  @meta for enum (auto sm : nvvm_arch_t) {
    if codegen (__nvvm_arch == sm) {
      @meta auto it = kernel_config.lower_bound((int)sm);
      static_assert(it != kernel_config.end(),
                    "requested SM version has no kernel details!");
// CHECK: [[FILE]]:[[@LINE-2]]:7: error: static assertion failed: requested SM version has no kernel details!
// CHECK-NOT: error:
      @meta details_t details = it->second;
      y[threadIdx.x] = details.nt;
    }
  }
}
