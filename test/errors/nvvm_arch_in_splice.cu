// RUN: not %metacu %s -o %t.gen.cu --arch 75,80 2>&1 | FileCheck %s -DFILE=%s
__global__ void k(int* x) {
  x[0] = @((int)__nvvm_arch);
// CHECK: [[FILE]]:[[@LINE-1]]:17: error: '__nvvm_arch' in meta code
}
