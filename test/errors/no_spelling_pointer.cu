// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta int storage = 3;
@meta int* ptr = &storage;
__global__ void k(int* x) {
  x[0] = *ptr;
// CHECK: [[FILE]]:[[@LINE-1]]:11: error: meta value of type 'int *' has no constant spelling in ordinary code
}
