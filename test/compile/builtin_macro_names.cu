// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.gen.ptx
// RUN: FileCheck %s < %t.gen.ptx
// RUN: %metacu %S/Inputs/redefined_file.cu -o %t.plain.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 %S/Inputs/redefined_file.cu -o %t.plain.ptx
// RUN: %nvcc -ptx -arch=sm_80 %t.plain.gen.cu -o %t.plain.gen.ptx
// RUN: cmp %t.plain.ptx %t.plain.gen.ptx
// __LINE__ and __FILE__ stand for the user's line and file in what the
// generator program copies of the file; where a directive names them as
// macros they stay names: a literal there made "macro name must be an
// identifier" of files nvcc compiles, with or without meta constructs
// (Inputs/redefined_file.cu, where nvcc warns of a redefined builtin and
// goes on).
#if defined(__LINE__) && defined __FILE__
#define WHERE 1000
#endif
#ifndef __FILE__
#error __FILE__ is a macro
#endif
@meta int n = WHERE + __LINE__;
__global__ void k(int *p) { *p = @(n) + __LINE__; }
// 1000 + 20 in the generator, + 21 in the kernel.
// CHECK: mov.u32 {{%r[0-9]+}}, 1041;
