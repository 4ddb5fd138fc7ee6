// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=1 2>&1 | FileCheck %s --check-prefix=INIT -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=2 2>&1 | FileCheck %s --check-prefix=REDECLARE -DFILE=%s
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 -DCASE=3 2>&1 | FileCheck %s --check-prefix=ARGUMENT -DFILE=%s
// RUN: not test -e %t.gen.cu
// 'using if codegen' declares what its branches declare in the scope around
// it: it begins a statement or declaration, and a name it declares there
// must not be the meta variable of that scope.
__device__ int g(int);
__device__ int f(int x) {
  @meta int n = 4;
#if CASE == 1
  int v = using if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { 1 };
// INIT: [[FILE]]:[[@LINE-1]]:11: error: 'using if codegen' chooses statements and declarations: it can only begin one
#elif CASE == 2
  using if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    int n = 2;
// REDECLARE: [[FILE]]:[[@LINE-1]]:9: error: declaration of 'n' in ordinary code redeclares the meta variable 'n' of the same scope
  }
#elif CASE == 3
  return g(using if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) x else 1);
// ARGUMENT: [[FILE]]:[[@LINE-1]]:12: error: 'using if codegen' chooses statements and declarations
#endif
  return x * n;
}
