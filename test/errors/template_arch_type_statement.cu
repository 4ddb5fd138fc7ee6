// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80,90 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// In a template over the architecture and a type, meta code reading the
// type has a value per instantiation only: a meta statement that is no
// declaration and reads it is refused at its line, as in any template.
#include <cstdio>
template <nvvm_arch_t sm, typename T>
__device__ void f(T *x) {
  @meta int n = (int)sm / 10;
  @meta printf("%d\n", (int)sizeof(T));
// CHECK: [[FILE]]:[[@LINE-1]]:9: error: {{.*}}template parameter
  x[threadIdx.x] = n;
}
