// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=1 2>&1 | FileCheck %s --check-prefix=COMMA -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=2 2>&1 | FileCheck %s --check-prefix=TEMPLATE -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=3 2>&1 | FileCheck %s --check-prefix=INIT -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=4 2>&1 | FileCheck %s --check-prefix=COND -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=5 2>&1 | FileCheck %s --check-prefix=ARGUMENT -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=6 2>&1 | FileCheck %s --check-prefix=OPEN -DFILE=%s
// RUN: not test -e %t.gen.cu
// 'if codegen' outside function bodies chooses whole declarations, members
// or list entries; where none of them can begin, or its condition does
// not compile, it is an error at its place.
__device__ int g(const int (&)[2]);
struct S {
  int a;
#if CASE == 1
  int c, if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { d; }
// COMMA: [[FILE]]:[[@LINE-1]]:10: error: 'if codegen' after a ',' chooses entries of a braced list, and these braces are no initializer or enumerator list
#elif CASE == 2
  template <class T> if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { void f(); }
// TEMPLATE: [[FILE]]:[[@LINE-1]]:22: error: 'if codegen' chooses statements, declarations, members or entries of a braced list: it can only begin one, not continue an expression or declaration
#elif CASE == 3
  static constexpr int v = if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { 1 };
// INIT: [[FILE]]:[[@LINE-1]]:28: error: 'if codegen' chooses statements
#elif CASE == 4
  if codegen (__nvvm_arch >= 80) { int b; }
// COND: [[FILE]]:[[@LINE-1]]:27: error: invalid operands to binary expression ('nvvm_arch_t' and 'int')
#endif
};
#if CASE == 5
__device__ int h() { return g({1, if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { 2, } else { 3, }}); }
// ARGUMENT: [[FILE]]:[[@LINE-1]]:35: error: 'if codegen' after a ',' chooses entries of a braced list
#elif CASE == 6
if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
// OPEN: [[FILE]]:[[@LINE-1]]:48: error: expected '}' to match this '{'
  __device__ int fast();
#endif
