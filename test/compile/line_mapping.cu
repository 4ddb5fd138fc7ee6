// RUN: %metacu %s -o %t.gen.cu --arch 80
// RUN: not %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s -DFILE=%s
// nvcc's errors in generated code point at the user's file and line, also
// inside an unrolled loop body.
@meta int n = 2;
__global__ void k(float* y) {
  float acc = 0.0f;
  @meta for (int i = 0; i < n; ++i)
    acc += undefined_thing[i];
// CHECK: [[FILE]]([[@LINE-1]]): error: identifier "undefined_thing" is undefined
  y[0] = acc;
}
