// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -ptx -arch=sm_75 %t.gen.cu -o - | FileCheck %s --check-prefix=SM75
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o - | FileCheck %s --check-prefix=SM80
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o - | FileCheck %s --check-prefix=SM90
// One table, read by host code at run time and by meta code at generation
// time: each architecture's image gets its own unrolled load count, and
// sm_80 with no entry of its own takes sm_75's (best fit).
#include <map>
#include <metacu/runtime.h>

struct config_t { int threads; int items; };
const std::map<int, config_t> tuning { {75, {128, 2}}, {90, {256, 6}} };

__global__ void copy(const float* __restrict__ x, float* __restrict__ y) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta config_t cfg = metacu::select(tuning, (int)arch);
      int base = blockIdx.x * @(cfg.threads * cfg.items) + threadIdx.x;
      @meta for (int i = 0; i < cfg.items; ++i)
        y[base + i * cfg.threads] = x[base + i * cfg.threads];
    }
  }
}
// SM75-LABEL: .entry {{.*}}copy
// SM75-COUNT-2: ld.global.nc.f32
// SM75-NOT: ld.global
// SM75: ret;
// SM80-LABEL: .entry {{.*}}copy
// SM80-COUNT-2: ld.global.nc.f32
// SM80-NOT: ld.global
// SM80: ret;
// SM90-LABEL: .entry {{.*}}copy
// SM90-COUNT-6: ld.global.nc.f32
// SM90-NOT: ld.global
// SM90: ret;
