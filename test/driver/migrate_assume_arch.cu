// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// Without --assume-arch migrate simplifies nothing: a conditional that
// every architecture nvcc 13 has compiles the same branch of stays, as
// does one the host and the targets split.
// RUN: %metacu migrate --dry-run %t/k.cu 2>&1 | FileCheck %s --check-prefix=PLAIN
// PLAIN: k.cu:[[#LEGACY:]]: left (constant)
// PLAIN-NOT: simplified
// With it, a conditional of which the host and the architectures named
// compile one branch becomes that branch, its other lines empty (so
// __LINE__ below keeps its value), and the summary counts them.
// RUN: %metacu migrate --in-place --assume-arch 80,90 %t/k.cu | FileCheck %s
// RUN: FileCheck %s --input-file %t/k.cu --check-prefix=OUT
// RUN: not %metacu migrate --dry-run --assume-arch 60 %t/k.cu 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: --assume-arch:
#include <cuda_runtime.h>

__device__ int legacy(int x) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 350
  return x;
#else
  return -x;
#endif
}
// CHECK: k.cu:[[#@LINE-6]]: simplified (constant): #if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 350 -> the branch at line [[#@LINE-6]], the only one host, sm_80, sm_90 compile (--assume-arch)
// OUT-LABEL: __device__ int legacy(int x) {
// OUT-EMPTY:
// OUT-NEXT:   return x;
// OUT-EMPTY:
// OUT-EMPTY:
// OUT-EMPTY:
// OUT-NEXT: }

__device__ int nested(int x) {
#ifdef __CUDA_ARCH__
#if __CUDA_ARCH__ >= 800
  x *= 2;
#endif
#endif
  return x;
}
// The outer one splits host from device and converts (the host reaches it
// and compiles no branch); the inner one only the assumed devices reach,
// and they all compile its branch.
// CHECK: k.cu:[[#@LINE-10]]: converted (statement)
// CHECK: k.cu:[[#@LINE-10]]: simplified (statement): #if __CUDA_ARCH__ >= 800 -> the branch at line [[#@LINE-10]]
// CHECK: --assume-arch 80,90: 2 conditionals simplified to the one branch host, sm_80, sm_90 compile
// OUT-LABEL: __device__ int nested(int x) {
// OUT-NEXT: if codegen ((int)__nvvm_arch != 0) {
// OUT-EMPTY:
// OUT-NEXT:   x *= 2;
// OUT-EMPTY:
// OUT-NEXT: }
