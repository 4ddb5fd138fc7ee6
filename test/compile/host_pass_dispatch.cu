// RUN: %metacu %s -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: FileCheck %s --input-file %t.gen.cu
// RUN: %metacu %S/Inputs/host_pass_mixed_types.cu -o %t.mixed.gen.cu --arch 75,80
// RUN: not %nvcc -c -arch=sm_80 %t.mixed.gen.cu -o %t.mixed.o 2>&1 | FileCheck %s --check-prefix=MIXED
// A __device__ 'auto' dispatcher whose 'if codegen' branches each return a
// value compiles in nvcc's host pass too: the host pass, which takes no
// branch, sees every branch under 'if (false)' and deduces the type they
// agree on. Branches that return different types are nvcc's error at the
// user's line. A __host__ __device__ function gets no host copy.
template <class T>
__device__ __forceinline__ auto scale(T x) {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_90) {
    return x * 4;
  } else if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) {
    return x * 2;
  } else if codegen (__nvvm_arch == nvvm_arch_t::sm_75)
    return x;
}
// The device passes' branches lose their braces as anywhere else
// (BranchBraces.h); the host copy has its own.
// CHECK: #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900
// CHECK-NEXT: return x * 4;
// CHECK-NEXT: #elif
// CHECK: #if !defined(__CUDA_ARCH__)
// CHECK-NEXT: #line [[#@LINE-12]] "{{.*}}host_pass_dispatch.cu"
// CHECK-NEXT: if (false) { return x * 4;
// CHECK: if (false) { return x * 2;
// CHECK: if (false) { return x;
// CHECK: }
// CHECK-NEXT: #endif

__host__ __device__ int lanes() {
  if codegen (__nvvm_arch >= nvvm_arch_t::sm_80) { return 32; }
  return 1;
}
// CHECK: __host__ __device__ int lanes() {
// CHECK-NOT: if (false)
// CHECK: return 1;

__global__ void k(int* out) { out[0] = scale(3) + lanes(); }
// MIXED: host_pass_mixed_types.cu(8): error: deduced return type "float" conflicts with previously deduced type "int"
