// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// A branch that only device passes compile, and that does not parse there,
// is harmless while the preprocessor skips it for the host, but as the body
// of an 'if codegen' metacu would parse it and the file would no longer
// expand. migrate leaves the site, names a pass that compiles the branch
// (the one the audit parsed) and the parser's error, and rewrites no line
// of the site.
// RUN: %metacu migrate --in-place %t/k.cu | FileCheck %s
// RUN: FileCheck --check-prefix=KEPT --input-file %t/k.cu %s
// KEPT: {{^}}#if __CUDA_ARCH__ >= 800{{$}}
// KEPT-NEXT: {{^}}  y *= 2;{{$}}
// KEPT-NEXT: {{^}}] y *= 2;{{$}}
// KEPT-NEXT: {{^}}#endif{{$}}
// KEPT: {{^}}#if __CUDA_ARCH__ >= 900{{$}}
// KEPT-NEXT: {{^}}  y *= 3;{{$}}
// KEPT-NEXT: {{^}}#else{{$}}
// KEPT-NEXT: {{^}}  y += ) x;{{$}}
// KEPT-NEXT: {{^}}#endif{{$}}
// KEPT-NEXT: {{^}}  if codegen ((int)__nvvm_arch >= 90) {
// KEPT: {{^}}__device__ int quad(int x) ) {{{$}}
// KEPT-NEXT: {{^}}#if __CUDA_ARCH__ >= 900{{$}}
// CHECK: k.cu:[[#@LINE+4]]: left (not-convertible): #if __CUDA_ARCH__ >= 800: the branch at line [[#@LINE+4]] does not parse when compiled for sm_{{[0-9]+}} (metacu parses the body of an 'if codegen'); line [[#@LINE+6]]:1: expected expression
// CHECK-NOT: converted
__device__ int twice(int x) {
  int y = x;
#if __CUDA_ARCH__ >= 800
  y *= 2;
] y *= 2;
#endif
  return y;
}
//
// Only the branch a pass compiles counts: an error in the host's branch
// says so for the host; a later conditional of the same body converts
// (inside a body Clang recovers statement by statement).
// CHECK: k.cu:[[#@LINE+6]]: left (not-convertible): #if __CUDA_ARCH__ >= 900: the branch at line [[#@LINE+8]] does not parse when compiled for host
// CHECK: k.cu:[[#@LINE+10]]: converted (statement): #if __CUDA_ARCH__ >= 900
// CHECK: k.cu:[[#@LINE+17]]: left (not-convertible): #if __CUDA_ARCH__ >= 900: the code before it does not parse when compiled for {{.*}}; line [[#@LINE+16]]:{{[0-9]+}}: expected
// CHECK: summary: 4 sites: 1 statement, 3 not-convertible in 1 file
__device__ int thrice(int x) {
  int y = x;
#if __CUDA_ARCH__ >= 900
  y *= 3;
#else
  y += ) x;
#endif
#if __CUDA_ARCH__ >= 900
  y += 1;
#endif
  return y;
}
// Past a function head that does not parse, where a conditional sits is
// unknown: it stays.
__device__ int quad(int x) ) {
#if __CUDA_ARCH__ >= 900
  x *= 4;
#endif
  return x;
}
