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
//
// A statement that ends in a macro's expansion without a ';' in the text
// ends where metacu, reading the text before macros expand, cannot see it:
// an 'if codegen' after it would not begin a statement there.
// CHECK: k.cu:[[#@LINE+5]]: left (not-convertible): #if __CUDA_ARCH__ >= 900: follows a statement that ends in the expansion of macro 'WRAP' without a ';' of its own
#define WRAP(...) __VA_ARGS__
__device__ int thrice(int x) {
  int y = x;
  WRAP(y += x;)
#if __CUDA_ARCH__ >= 900
  y += x;
#endif
  return y;
}
