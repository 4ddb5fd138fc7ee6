// metacu::tuned_kernels, the one call of a kernel's file: in an ordinary
// build one kernel named as the space, its code per architecture from the
// tuning file's entry that serves it or else the defaults, and the host's
// table of the same; under `metacu tune` one kernel per candidate, its
// parameters for every architecture (key 0 in the table). The standard
// harness (METACU_TUNE_ARRAYS: a CPU reference, a reference kernel, an
// array updated in place) builds with nvcc, and is nothing in an ordinary
// build. No GPU: the harness is compiled, not run.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu && cd %t
// RUN: %metacu k.cu -o none.gen.cu --arch 75,90
// RUN: FileCheck %s --check-prefix=NONE < none.gen.cu
// RUN: grep conv_kernels none.gen.cu | tr '{}' '<>' | FileCheck %s --check-prefix=NONETABLE
// RUN: %metacu tune --quiet --replay %S/Inputs/conv.json --arch 80 --tuning-file k.tuning.json > /dev/null
// RUN: %metacu k.cu -o k.gen.cu --arch 75,80,90 -MD -MF k.d
// RUN: FileCheck %s < k.gen.cu
// RUN: grep conv_kernels k.gen.cu | tr '{}' '<>' | FileCheck %s --check-prefix=TABLE
// RUN: FileCheck %s --check-prefix=DEPS < k.d
// RUN: %metacu tune k.cu --arch 90 --emit-bundle b --strategy random_sample --budget 2 --seed 3 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: FileCheck %s --check-prefix=TUNE < b/src/batch_0.cu
// RUN: FileCheck %s --check-prefix=HARNESS < b/src/harness.cu
// RUN: grep '"harness"' b/manifest.json | FileCheck %s --check-prefix=MANIFEST
// RUN: env METACU_TUNE_CACHE=%t/cache %python b/run.py --compile-only --jobs 2 --nvcc %cuda-nvcc 2>&1 | FileCheck %s --check-prefix=BUILD
// RUN: ls %t/cache | FileCheck %s --check-prefix=CACHED
// RUN: not test -s b/results.jsonl
// RUN: %cuda-nvcc -std=c++17 -I %S/../../runtime/include -arch sm_90 -c k.gen.cu -o k.o
// RUN: grep conv_kernels b/src/batch_0.cu | tr '{}' '<>' | FileCheck %s --check-prefix=TUNETABLE
// RUN: sed 's/, {"tile", 1}//' k.cu > bad.cu && not %metacu bad.cu -o bad.gen.cu --arch 90 2>&1 | FileCheck %s --check-prefix=ERR
#include <metacu/tuned.h>

@meta metacu::tune_space space = metacu::tune_space("conv")
    .param("block_size_x", {16, 32, 64, 128}).param("tile", {1, 2, 4});
@meta metacu::tuned_kernels conv(space, "k.tuning.json",
                                 metacu::params({{"block_size_x", 32}, {"tile", 1}}));

@meta for (const metacu::tuned_kernel &k : conv) {
__global__ void @(k.name)(float *x) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json &p = k.params(arch);
      x[threadIdx.x] *= @(p["block_size_x"].as_int() * p["tile"].as_int());
    }
  }
}
}

const metacu::tuned_table<void(float *)> conv_kernels = @(conv.host_table());

__global__ void conv_reference(float *x) { x[threadIdx.x] = 0; }

METACU_TUNE_ARRAYS(conv_kernels.size(), [](metacu::tune::arrays &io) {
  float *x = io.output<float>(256, [](size_t) { return 0.0; });
  float *y = io.output_from_kernel<float>(
      256, [](float *ref) { conv_reference<<<1, 256>>>(ref); });
  float *z = io.inout(std::vector<float>(256, 1.0f), [](size_t) { return 1.0; });
  return [=](size_t i) {
    const metacu::tuned_config &p = conv_kernels.config(i);
    for (float *out : {x, y, z})
      conv_kernels.kernel(i)<<<1, p["block_size_x"]>>>(out);
  };
})

// Without a tuning file, the defaults (32 x 1) everywhere.
// NONE: __global__ void conv(float *x) {
// NONE: __CUDA_ARCH__ == 750
// NONE: x[threadIdx.x] *= 32;
// NONE: __CUDA_ARCH__ == 900
// NONE: x[threadIdx.x] *= 32;
// NONETABLE: conv_kernels = <<conv, <<75, <<"block_size_x", 32LL>, <"tile", 1LL>>>, <90, <<"block_size_x", 32LL>, <"tile", 1LL>>>>>>;

// The replay's sm_80 entry (block_size_x 64, tile 2) serves sm_80 and
// sm_90; sm_75, below it, keeps the defaults.
// CHECK: __CUDA_ARCH__ == 750
// CHECK: x[threadIdx.x] *= 32;
// CHECK: __CUDA_ARCH__ == 800
// CHECK: x[threadIdx.x] *= 128;
// CHECK: __CUDA_ARCH__ == 900
// CHECK: x[threadIdx.x] *= 128;
// TABLE: conv_kernels = <<conv, <<75, <<"block_size_x", 32LL>, <"tile", 1LL>>>, <80, <<"block_size_x", 64LL>, <"tile", 2LL>>>, <90, <<"block_size_x", 64LL>, <"tile", 2LL>>>>>>;
// DEPS: k.tuning.json

// EMIT: 2 candidates of conv (12 valid configurations)
// TUNE-NOT: __global__ void conv(
// TUNE: __global__ void conv_tune_{{[0-9]+}}(float *x) {
// TUNE: __global__ void conv_tune_{{[0-9]+}}(float *x) {
// TUNETABLE: conv_kernels = <<conv_tune_{{[0-9]+}}, <<0, <<"block_size_x", {{[0-9]+}}LL>, <"tile", {{[0-9]}}LL>>>>>, <conv_tune_{{[0-9]+}}, <<0, <<"block_size_x", {{[0-9]+}}LL>, <"tile", {{[0-9]}}LL>>>>>>;

// Every space read through tuned_kernels: the describe expansion is the
// harness, no candidate in it and the table filled at run time; run.py
// compiles it (a real nvcc) once into the cache, for every batch and run.
// HARNESS-NOT: {{^}}__global__ void conv{{(_tune_[0-9]+)?}}(
// HARNESS: conv_kernels = metacu::tune_harness_table{"conv"};
// HARNESS-NOT: {{^}}__global__ void conv{{(_tune_[0-9]+)?}}(
// MANIFEST: "harness": "./harness.cu"
// BUILD: run.py: 2 candidates in
// CACHED: table-harness-{{[0-9a-f]+$}}

// ERR: bad.cu:32:{{[0-9]+}}: error: tuned_kernels: the defaults of tune_space 'conv' give no value of 'tile'
