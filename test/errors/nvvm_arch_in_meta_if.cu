// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
__global__ void k(int* x) {
  @meta for (int i = 0; i < 2; ++i) {
    @meta if (i == 1 && __nvvm_arch == nvvm_arch_t::sm_80)
// CHECK: [[FILE]]:[[@LINE-1]]:25: error: '__nvvm_arch' in meta code
      x[i] = 1;
  }
}
