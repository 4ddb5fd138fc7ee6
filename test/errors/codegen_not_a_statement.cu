// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DCASE=1 2>&1 | FileCheck %s --check-prefix=ASSIGN -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DCASE=2 2>&1 | FileCheck %s --check-prefix=LIST -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DCASE=3 2>&1 | FileCheck %s --check-prefix=SPACED -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -DCASE=4 2>&1 | FileCheck %s --check-prefix=RETURN -DFILE=%s
// RUN: not test -e %t.gen.cu
// 'if codegen' begins a statement, declaration, member or list entry:
// inside an expression or a declaration it is an error at its place, never
// text dropped ('y = y ;') or copied unexpanded (after a string, the lexer
// reads 'if' as the literal's suffix).
struct P { const char* s; int v; };
__device__ int f(int* x) {
  int y = x[0];
#if CASE == 1
  y = y if codegen (__nvvm_arch >= nvvm_arch_t::sm_80);
// ASSIGN: [[FILE]]:[[@LINE-1]]:9: error: 'if codegen' chooses statements, declarations, members or entries of a braced list: it can only begin one
#elif CASE == 2
  P p = {"x"if codegen (__nvvm_arch >= nvvm_arch_t::sm_80), 1};
// LIST: [[FILE]]:[[@LINE-1]]:13: error: 'if codegen' chooses statements
#elif CASE == 3
  P p = {"x" if codegen (__nvvm_arch >= nvvm_arch_t::sm_80), 1};
// SPACED: [[FILE]]:[[@LINE-1]]:14: error: 'if codegen' chooses statements
#elif CASE == 4
  return 1 if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { return 2; }
// RETURN: [[FILE]]:[[@LINE-1]]:12: error: 'if codegen' chooses statements
#endif
  return y;
}
