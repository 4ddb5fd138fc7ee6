// RUN: rm -rf %t && mkdir -p %t/src/device %t/build/gensrc %t/out
// RUN: printf '#pragma once\n#include "prims_impl.h"\n@meta int width = 4;\n__device__ inline int prim(int x) { return prim_impl(x) * @(width); }\n' > %t/src/device/prims.h
// RUN: printf '__device__ inline int prim_impl(int x) { return x + 1; }\n' > %t/src/device/prims_impl.h
// RUN: cp %s %t/build/gensrc/k.cu
// RUN: cd %t && %metacu build/gensrc/k.cu -Isrc/device -o out/k.gen.cu --arch 80
// RUN: FileCheck %s < %t/out/k.gen.cu
// RUN: cd %t && %nvcc -ptx -arch=sm_80 -Isrc/device out/k.gen.cu -o k.ptx
// A dialect header found through a relative -I is named in #line as nvcc's
// preprocessor names it (the -I directory as spelled joined with the
// include name), not by a path from the input's directory: __FILE__ and
// -lineinfo paths are the original build's. Its quote-include of a file
// beside it, which the include path finds as written, stays as written:
// nvcc finds it from the generated file wherever that lies.
#include "prims.h"
__global__ void k(int *o) { o[0] = prim(o[1]); }
// CHECK: #line 2 "src/device/prims.h"
// CHECK-NEXT: #include "prims_impl.h"
// CHECK-NOT: {{\.\./\.\./src}}
