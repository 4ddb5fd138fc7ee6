// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
struct S {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { int x; }
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: 'if codegen' can only appear inside a function body
};
