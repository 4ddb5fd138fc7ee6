// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// The preprocessor cannot compare an enumerator; __CUDA_ARCH__ is its value.
__global__ void k(int* x) {
#if (int)__nvvm_arch >= 80
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: '__nvvm_arch' in '#if': it is a C++ value of type nvvm_arch_t, which the preprocessor cannot evaluate
  x[0] = 1;
#endif
}
