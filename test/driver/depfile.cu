// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu && cp %S/Inputs/tuning.json %S/Inputs/local.h %t/
// RUN: cd %t && %metacu k.cu -o k.gen.cu --arch 80 -MD -MF k.d
// RUN: FileCheck %s < %t/k.d
// The dependency file names the input, the headers it includes and the data
// files meta code read, so editing any of them regenerates the output.
#include "local.h"
__global__ void k(int* x) {
  @meta auto t = metacu::load_json("tuning.json");
  x[0] = @(t["n"].get<int>() + local_value);
}
// CHECK: k.gen.cu: \
// CHECK-NEXT: k.cu \
// CHECK: local.h
// CHECK: tuning.json
