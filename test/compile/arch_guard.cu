// RUN: %metacu %s -o %t.gen.cu --arch 75,80
// RUN: not %nvcc -ptx -arch=sm_86 %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
// A generated file compiled for an architecture it was not generated for
// stops with a message that says what to do.
__global__ void k(float* y) { y[0] = 1.0f; }
// CHECK: error: #error "{{.*}}.gen.cu was generated for sm_75, sm_80 only; regenerate it with metacu --arch"
