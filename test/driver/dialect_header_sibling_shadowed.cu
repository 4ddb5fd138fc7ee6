// RUN: rm -rf %t && mkdir -p %t/include %t/src
// RUN: printf '#pragma once\n#include "config.h"\n@meta int width = 4;\n__device__ inline int prim(int x) { return x * LIBCONF * @(width); }\n' > %t/include/lib.cuh
// RUN: printf '#define LIBCONF 3\n' > %t/include/config.h
// RUN: printf '#define SRCCONF 5\n' > %t/src/config.h
// RUN: cp %s %t/src/k.cu
// RUN: cd %t && %metacu src/k.cu -Iinclude -o src/k.gen.cu --arch 80
// RUN: FileCheck %s < %t/src/k.gen.cu
// RUN: cd %t && %nvcc -ptx -arch=sm_80 -Iinclude src/k.gen.cu -o k.ptx
// A spliced header's quote-include that the include path finds as written
// still opens another file from the generated file when a file of that
// name lies in the input's directory, which nvcc searches first there
// (the header's own directory came first for the header): it is rewritten
// to the header's sibling relative to the input's directory, and resolves
// as it did in the header.
#include "lib.cuh"
#include "config.h"
__global__ void k(int *o) { o[0] = prim(o[1]) + SRCCONF; }
// CHECK: #line 2 "include/lib.cuh"
// CHECK-NEXT: #include "../include/config.h"
// CHECK: #line 2 "src/k.cu"
// CHECK-NEXT: #include "config.h"
