// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// Meta code runs once, before any architecture is compiled: it has no
// __nvvm_arch (if codegen and '@meta for enum' are the ways to it).
__global__ void k(int* x) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    @meta int cc = (int)__nvvm_arch;
// CHECK: [[FILE]]:[[@LINE-1]]:25: error: '__nvvm_arch' in meta code: meta code runs once, before any architecture is compiled
    x[0] = cc;
  }
}
