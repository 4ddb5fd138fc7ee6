// RUN: rm -rf %t && mkdir -p %t/src/inc %t/src/host
// A header that a C++ source of the tree includes (compiled by the host
// compiler, not by nvcc through metacu) stays plain C++: migrate leaves its
// sites, and says which source includes it, at the site's line. Clang's
// preprocessor resolves the source's #include with the -I given (here
// through -I inc and a macro), passing over a header it cannot find.
// RUN: sed -n '/^#pragma once/,$p' %s > %t/src/inc/common.h
// RUN: cp %t/src/inc/common.h %t/common.orig
// RUN: printf '#pragma once\n__device__ inline int twice(int x) {\n#if __CUDA_ARCH__ >= 800\n  return 2 * x;\n#else\n  return x + x;\n#endif\n}\n' > %t/src/inc/device_only.cuh
// RUN: printf '#include "inc/common.h"\n#include "inc/device_only.cuh"\n__global__ void k(int *p) { p[0] = lanes(p[1]) + twice(p[2]); }\n' > %t/src/k.cu
// RUN: printf '#include <absent_config.h>\n#define HEADER <common.h>\n#include HEADER\nint main() { return lanes(1); }\n' > %t/src/host/main.cpp
// RUN: cd %t && %metacu migrate --in-place src -I src/inc | FileCheck %s
// CHECK: src/inc/common.h:6: left (not-convertible): #if defined(__CUDA_ARCH__): included by C++ source 'src/host/main.cpp', which the host compiler builds without metacu
// CHECK: src/inc/device_only.cuh:3: converted (statement)
// CHECK: summary: 2 sites: 1 statement, 1 not-convertible in 3 files
// CHECK: not-convertible  included by C++ source '...', which the host compiler builds without metacu
// RUN: cmp %t/common.orig %t/src/inc/common.h
// RUN: grep -q "if codegen ((int)__nvvm_arch >= 80)" %t/src/inc/device_only.cuh
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
