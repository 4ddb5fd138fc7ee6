// RUN: rm -rf %t && mkdir -p %t/src %t/include %t/out
// RUN: cp %s %t/src/k.cu && cp -r %S/Inputs/dialect %t/include/
// RUN: cd %t && %metacu src/k.cu -o out/k.gen.cu --arch 80 -Iinclude
// RUN: cd %t && %nvcc -c out/k.gen.cu -o out/k.o -arch=sm_80 -Iinclude -Isrc -MD -MF out/k.d
// RUN: FileCheck %s < %t/out/k.d
// nvcc's dependency file lists the files the generated file's #line
// directives name; each must open from the directory nvcc ran in, or a
// build tool finds a dependency missing and compiles the file again on
// every build. The input is named as given (relative here), the user's
// header as nvcc's preprocessor names it (its -I directory as spelled
// joined with the include name), metacu's dma.cuh by its real path.
// RUN: cd %t && sed -e '1s/^[^:]*://' -e 's/\\$//' out/k.d | xargs ls > /dev/null
#include <metacu/dma.cuh>
#include <dialect/shared.cuh>

@meta auto stage = metacu::dma::plan({.bytes = 4096, .threads = 128, .align = 16});
using stage_t = @(stage.type());

__global__ void staged(const float4* src, float4* dst) {
  __shared__ alignas(128) float4 tile[256];
  __shared__ metacu::dma::barrier bar;
  stage_t dma(bar);
  dma.copy(tile, src + blockIdx.x * 256);
  dst[blockIdx.x * 256 + threadIdx.x] = tile[(threadIdx.x + @(shared_items)) % 256];
}
// CHECK: out/k.o : out/k.gen.cu
// CHECK-DAG: {{^ +}}src/k.cu
// CHECK-DAG: {{^ +/.+}}/metacu/dma.cuh
// CHECK-DAG: {{^ +}}include/dialect/shared.cuh
