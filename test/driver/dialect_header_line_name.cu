// RUN: rm -rf %t && mkdir -p %t/src/device %t/build/gensrc
// RUN: printf '#pragma once\n@meta int width = 4;\n__device__ inline int prim(int x) { return x * @(width); }\n' > %t/src/device/prims.h
// RUN: cp %s %t/build/gensrc/k.cu
// RUN: cd %t && %metacu build/gensrc/k.cu -Isrc/device -o build/gensrc/k.gen.cu --arch 80
// RUN: FileCheck %s < %t/build/gensrc/k.gen.cu
// RUN: cd %t && %nvcc -ptx -arch=sm_80 -Isrc/device build/gensrc/k.gen.cu -o k.ptx
// A dialect header found through a relative -I is named in #line as nvcc's
// preprocessor names it (the -I directory as spelled joined with the
// include name), not by a path from the input's directory: __FILE__ and
// -lineinfo paths are the original build's.
#include "prims.h"
__global__ void k(int *o) { o[0] = prim(o[1]); }
// CHECK: #line 2 "src/device/prims.h"
// CHECK-NOT: {{\.\./\.\./src}}
