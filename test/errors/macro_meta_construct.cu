// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// 'if codegen' in a #define would reach nvcc unexpanded; it is refused
// with the reason.
#define ON_AMPERE(stmt) if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { stmt; }
// CHECK: [[FILE]]:[[@LINE-1]]:25: error: meta constructs cannot appear inside preprocessor directives: metacu expands the file before the preprocessor does, so it never sees a macro's expansion
__global__ void k(int* out) { ON_AMPERE(out[0] = 1) }
