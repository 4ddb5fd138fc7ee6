// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80,90 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// 'if codegen' without its '(' is a malformed construct at its place (it
// was left to nvcc as ordinary code, with __nvvm_arch lowered in it).
__global__ void k(int* out) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    out[0] = 1;
  } else if codegen __nvvm_arch >= nvvm_arch_t::sm_80 {
// CHECK: [[FILE]]:[[@LINE-1]]:21: error: expected '(' after 'if codegen'
    out[0] = 2;
  }
}
