// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// Clang reads a conditional directive inside a function-like macro's
// arguments; 'if codegen' cannot stand there. migrate leaves the site, says
// why, and rewrites no token of the directive.
// RUN: %metacu migrate --in-place %t/k.cu | FileCheck %s
// RUN: cmp %s %t/k.cu
// CHECK: k.cu:[[#@LINE+6]]: left (not-convertible): #if __CUDA_ARCH__ >= 800: its directive at line [[#@LINE+6]] is inside the arguments of macro 'CALL' (line [[#@LINE+5]])
// CHECK-NOT: converted
#define CALL(f, x) f(x)
__device__ int g(int x) { return x; }
__device__ int twice(int x) {
  int y = CALL(g,
#if __CUDA_ARCH__ >= 800
    x * 2
#else
    x
#endif
  );
  return y;
}
