// RUN: rm -rf %t && mkdir -p %t/src/inc %t/src/host
// A header that a C++ source of the tree includes (compiled by the host
// compiler, not by nvcc through metacu) stays C++ for that compiler: the
// conditional migrate rewrites goes under `#ifdef __CUDACC__`, the text as
// written in its `#else`, and the report names the source. The C++
// source then preprocesses to the same tokens as before; the unit nvcc
// builds through metacu expands and compiles. A value use there stays, at
// its line, with the reason. Clang's preprocessor resolves the source's
// #include with the -I given (here through -I inc and a macro), passing
// over a header it cannot find.
// RUN: sed -n '/^#pragma once/,$p' %s > %t/src/inc/common.h
// RUN: printf '#pragma once\n__device__ inline int twice(int x) {\n#if __CUDA_ARCH__ >= 800\n  return 2 * x;\n#else\n  return x + x;\n#endif\n}\n' > %t/src/inc/device_only.cuh
// RUN: printf '#include "inc/common.h"\n#include "inc/device_only.cuh"\n__global__ void k(int *p) { p[0] = lanes(p[1]) + twice(p[2]) + arch(); }\n' > %t/src/k.cu
// RUN: printf '#include <absent_config.h>\n#define HEADER <common.h>\n#include HEADER\nint main() { return lanes(1); }\n' > %t/src/host/main.cpp
// RUN: printf '#include "../inc/common.h"\nint uses() { return lanes(1) + arch(); }\n' > %t/src/host/uses.cpp
// RUN: c++ -std=c++17 -E -P %t/src/host/uses.cpp | tr -s ' \n' '\n\n' > %t/uses.before
// RUN: cd %t && %metacu migrate --in-place src -I src/inc | FileCheck %s
// CHECK: src/inc/common.h:6: converted (declaration): #if defined(__CUDA_ARCH__) -> if codegen ((int)__nvvm_arch != 0) / else under #ifdef __CUDACC__, as written in its #else for C++ source 'src/host/main.cpp'
// CHECK: src/inc/common.h:11: converted (declaration): #ifdef __CUDA_ARCH__ -> if codegen ((int)__nvvm_arch != 0) / else under #ifdef __CUDACC__
// CHECK: src/inc/common.h:12: left (not-convertible): {{.*}}: included by C++ source 'src/host/main.cpp', which the host compiler builds without metacu: __nvvm_arch would not compile there
// CHECK: src/inc/device_only.cuh:3: converted (statement)
// CHECK: summary: 4 sites: 1 statement, 2 declaration, 1 not-convertible in 3 files
// CHECK: not-convertible included by C++ source
// RUN: FileCheck %s --check-prefix=HEADER < %t/src/inc/common.h
// HEADER: {{^}}#ifdef __CUDACC__
// HEADER-NEXT: {{^}}#line 6
// HEADER: if codegen ((int)__nvvm_arch != 0) {
// HEADER: {{^}}#else
// HEADER-NEXT: {{^}}#line 6
// HEADER-NEXT: {{^}}#if defined(__CUDA_ARCH__)
// RUN: c++ -std=c++17 -E -P %t/src/host/uses.cpp | tr -s ' \n' '\n\n' > %t/uses.after
// RUN: cmp %t/uses.before %t/uses.after
// RUN: grep -q "if codegen ((int)__nvvm_arch >= 80)" %t/src/inc/device_only.cuh
// RUN: cd %t/src && %metacu k.cu -o %t/k.gen.cu --arch 80 -I inc
// RUN: %nvcc -ptx -arch=sm_80 -I %t/src/inc %t/k.gen.cu -o %t/k.ptx
#pragma once
#ifndef __CUDACC__
#define __host__
#define __device__
#endif
#if defined(__CUDA_ARCH__)
__host__ __device__ inline int lanes(int x) { return x + 1; }
#else
__host__ __device__ inline int lanes(int x) { return x; }
#endif
#ifdef __CUDA_ARCH__
__device__ inline int arch() { return __CUDA_ARCH__; }
#else
inline int arch() { return 0; }
#endif
