// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %plain-nvcc -ptx -arch=sm_75 %t.gen.cu -o - | FileCheck %s --check-prefixes=CHECK,SM75
// RUN: %plain-nvcc -ptx -arch=sm_80 %t.gen.cu -o - | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: %plain-nvcc -ptx -arch=sm_90 %t.gen.cu -o - | FileCheck %s --check-prefixes=CHECK,SM90
// The host pass: nvcc -c compiles it, and the host program sees nvvm_arch_t{}.
// RUN: %plain-nvcc -arch=sm_80 %t.gen.cu -o %t.host
// RUN: %t.host | FileCheck %s --check-prefix=HOST
// An architecture outside the list stops at the guard, before __nvvm_arch.
// RUN: not %plain-nvcc -ptx -arch=sm_86 %t.gen.cu -o %t.ptx 2>&1 | FileCheck %s --check-prefix=FOREIGN
// FOREIGN: error: #error "{{.*}}was generated for sm_75, sm_80, sm_90 only
// FOREIGN-NOT: error:

// __nvvm_arch as a value in ordinary code: the architecture of the device
// pass being compiled. No metacu header is needed for it (plain nvcc, no -I).
#include <cstdio>

constexpr int host_cc = (int)__nvvm_arch;

template <nvvm_arch_t A> __device__ int tile() { return (int)A / 5; }

template <class T> __device__ T scaled(T x) {
  return x * T((int)__nvvm_arch);
}

__device__ int dev_cc = (int)__nvvm_arch + 1000;
__constant__ int const_cc = (int)__nvvm_arch + 2000;

__device__ int by_switch() {
  switch (__nvvm_arch) {
  case nvvm_arch_t::sm_75: return 7;
  case nvvm_arch_t::sm_80: return 8;
  default: return 9;
  }
}

__global__ void k(int* out) {
  constexpr int cc = (int)__nvvm_arch;
  // The host pass parses kernels too, where the value is nvvm_arch_t{}.
  static_assert(cc == 0 || cc == 75 || cc == 80 || cc == 90, "one of the passes");
  out[0] = cc * 3;
  out[1] = tile<__nvvm_arch>();
  out[2] = by_switch() + 100;
  out[3] = __nvvm_arch >= nvvm_arch_t::sm_80 ? 4444 : 5555;
  out[4] = scaled(11);
  out[5] = dev_cc + const_cc;
}
// SM75: .global .align 4 .u32 dev_cc = 1075;
// SM75: .const .align 4 .u32 const_cc = 2075;
// SM80: .global .align 4 .u32 dev_cc = 1080;
// SM80: .const .align 4 .u32 const_cc = 2080;
// SM90: .global .align 4 .u32 dev_cc = 1090;
// SM90: .const .align 4 .u32 const_cc = 2090;
// CHECK-LABEL: .entry {{.*}}k
// SM75-DAG: mov.u32 {{%r[0-9]+}}, 225;
// SM75-DAG: mov.u32 {{%r[0-9]+}}, 15;
// SM75-DAG: mov.u32 {{%r[0-9]+}}, 107;
// SM75-DAG: mov.u32 {{%r[0-9]+}}, 5555;
// SM75-DAG: mov.u32 {{%r[0-9]+}}, 825;
// SM80-DAG: mov.u32 {{%r[0-9]+}}, 240;
// SM80-DAG: mov.u32 {{%r[0-9]+}}, 16;
// SM80-DAG: mov.u32 {{%r[0-9]+}}, 108;
// SM80-DAG: mov.u32 {{%r[0-9]+}}, 4444;
// SM80-DAG: mov.u32 {{%r[0-9]+}}, 880;
// SM90-DAG: mov.u32 {{%r[0-9]+}}, 270;
// SM90-DAG: mov.u32 {{%r[0-9]+}}, 18;
// SM90-DAG: mov.u32 {{%r[0-9]+}}, 109;
// SM90-DAG: mov.u32 {{%r[0-9]+}}, 4444;
// SM90-DAG: mov.u32 {{%r[0-9]+}}, 990;

int main() {
  bool before_sm80 = __nvvm_arch < nvvm_arch_t::sm_80;
  std::printf("host %d %d\n", host_cc, (int)before_sm80);
}
// HOST: host 0 1
