// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// metacu preprocesses once; a meta construct under __CUDA_ARCH__ would be
// expanded for the host pass's view of the file only.
#define HAS_ASYNC __CUDA_ARCH__ >= 800
__global__ void k(int* x) {
#if HAS_ASYNC
  @meta for (int i = 0; i < 2; ++i)
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta construct inside a preprocessor conditional that tests __CUDA_ARCH__{{.*}}code with 'if codegen (__nvvm_arch ...)'
    x[i] = 0;
#endif
}
