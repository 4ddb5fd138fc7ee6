// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --max-expansion 1 2>&1 | FileCheck %s --check-prefix=ONE
// ONE: error: the expansion exceeds 1 MiB
// Every record the generator keeps counts toward the limit, so a loop that
// emits only empty blocks stops too, quickly and in bounded memory.
__global__ void k(int* x) {
  @meta while (true) {}
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: the expansion exceeds 256 MiB; is a meta loop running away? (--max-expansion raises the limit)
  x[0] = 1;
}
