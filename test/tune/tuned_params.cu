// The loop closed without a GPU: a replay writes the tuning file, and the
// kernel's meta code reads its entry with metacu::tuned_params at the next
// expansion. sm_86 has no entry of its own and takes sm_80's, as
// metacu::select would; an architecture below every entry is an error at
// the line that asked.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// RUN: %metacu tune --quiet --replay %S/Inputs/conv.json --arch 80 --tuning-file %t/k.tuning.json > /dev/null
// RUN: cd %t && %metacu k.cu -o k.gen.cu --arch 80,86 -MD -MF k.d
// RUN: FileCheck %s < %t/k.gen.cu
// RUN: FileCheck %s --check-prefix=DEPS < %t/k.d
// RUN: cd %t && not %metacu k.cu -o k75.gen.cu --arch 75 2>&1 | FileCheck %s --check-prefix=ERR
@meta metacu::json tuning = metacu::load_json("k.tuning.json");

__global__ void scale(float *x) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json &p = metacu::tuned_params(tuning, arch);
      x[threadIdx.x] *= @(p["block_size_x"].get<int>() * p["tile"].get<int>());
    }
  }
}
// CHECK: __CUDA_ARCH__ == 800
// CHECK: x[threadIdx.x] *= 128;
// CHECK: __CUDA_ARCH__ == 860
// CHECK: x[threadIdx.x] *= 128;
// DEPS: k.tuning.json
// ERR: k.cu:[[@LINE-10]]:{{[0-9]+}}: error: {{.*}}k.tuning.json:1:1: no tuning entry fits sm_75; the file has sm_80 (metacu tune --arch 75 --tuning-file FILE writes one)
