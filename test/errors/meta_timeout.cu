// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --meta-timeout 1 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta unsigned long spin() {
  volatile unsigned long n = 0;
  while (true)
    n = n + 1;
}
__global__ void k(int* x) {
  @meta unsigned long n = spin();
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: meta code ran longer than 1 s (--meta-timeout raises the limit)
  x[0] = 1;
}
