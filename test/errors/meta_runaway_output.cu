// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// Every record the generator keeps counts toward the limit, so a loop that
// emits only empty blocks stops too, quickly and in bounded memory.
__global__ void k(int* x) {
  @meta while (true) {}
// CHECK: [[FILE]]:[[@LINE-1]]:23: error: the expansion exceeds 256 MiB; is a meta loop running away?
  x[0] = 1;
}
