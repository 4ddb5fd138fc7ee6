// RUN: %metacu report %s --arch 75,90 --format json | FileCheck %s
// RUN: %metacu report %s --arch 75,90 | FileCheck %s --check-prefix=TEXT
// A kernel's launch configuration from the @meta table it uses: the table
// feeds a constexpr function of the architecture, which the kernel's
// __launch_bounds__ calls with __nvvm_arch, so each architecture's PTX
// carries its own .maxntid and the report, given no --block, takes that.
#include <map>

@meta std::map<int, int> threads = {{75, 128}, {90, 512}};

constexpr int threads_for(nvvm_arch_t arch) {
  switch (arch) {
  @meta for (auto [cc, n] : threads) {
  case (nvvm_arch_t)@(cc):
    return @(n);
  }
  default:
    return 256;
  }
}

__global__ void __launch_bounds__(threads_for(__nvvm_arch)) scale(float* x, float a) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= a;
}

// CHECK: "name": "scale",
// CHECK: "arch": 75,
// CHECK: "max_threads_per_block": 128,
// CHECK-NEXT: "block": [
// CHECK-NEXT: 128,
// CHECK: "launch_source": "launch_bounds"
// CHECK: "name": "scale",
// CHECK: "arch": 90,
// CHECK: "max_threads_per_block": 512,
// CHECK-NEXT: "block": [
// CHECK-NEXT: 512,
// CHECK: "blocks_per_sm": 4,
// CHECK: "launch_source": "launch_bounds"

// TEXT: scale (_Z5scalePff), __launch_bounds__ 128, 512 from sm_90
// TEXT: sm_75 {{.*}} 128*
// TEXT: sm_90 {{.*}} 512*
