// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 -I%S %t.gen.cu -o %t.ptx
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: not %nvcc -ptx -arch=sm_80 -I%S -DBREAK %t.gen.cu -o %t.bad.ptx 2>&1 | FileCheck %s --check-prefix=ERR -DDIR=%S
// A dialect header's expanded code compiles where the input's does (its
// own quoted #include now reads from the input's directory, on the include
// path as metacu_target_sources sets it), and nvcc's errors in it point at
// the header's line through #line.
#include "Inputs/dialect/lib.cuh"

__global__ void k(const float* x, float* y) {
  y[0] = lib_sum(x) * @(lib_unroll);
}
// The meta value of the header reached the input: y[0] = sum * 4.0f.
// PTX: mul.f32 {{.*}}0f40800000
// ERR: [[DIR]]/Inputs/dialect/lib.cuh(11): error: identifier "undefined_thing" is undefined
