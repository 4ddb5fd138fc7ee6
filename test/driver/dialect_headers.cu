// RUN: rm -rf %t && mkdir -p %t/src %t/a %t/b
// RUN: cp -r %S/Inputs/dialect %t/src/ && cp %s %t/src/one.cu && cp %s %t/src/two.cu
// RUN: cd %t/src && %metacu one.cu -o %t/a/one.gen.cu --arch 80 -DFACTOR=1 -MD -MF %t/a/one.d
// RUN: cd %t/src && %metacu two.cu -o %t/a/two.gen.cu --arch 80 -DFACTOR=100
// RUN: FileCheck %s --check-prefix=DEP < %t/a/one.d
// RUN: FileCheck %s --check-prefix=ONE < %t/a/one.gen.cu
// RUN: FileCheck %s --check-prefix=TWO < %t/a/two.gen.cu
// The same tree elsewhere gives the same bytes: no absolute path leaks.
// RUN: rm -rf %t/elsewhere && cp -r %t/src %t/elsewhere
// RUN: cd %t/elsewhere && %metacu one.cu -o %t/b/one.gen.cu --arch 80 -DFACTOR=1
// RUN: cmp %t/a/one.gen.cu %t/b/one.gen.cu
// Two inputs that include the same dialect header each get its expansion;
// the dependency file names it, the header nested in it and the plain
// header it includes.
#include "dialect/shared.cuh"
#include "dialect/shared.cuh"
__global__ void k(int* x) {
  x[0] = @(shared_items * FACTOR) + shared_plain;
}
// DEP: one.gen.cu: \
// DEP-NEXT: one.cu \
// DEP-NEXT: {{.*}}/src/dialect/shared.cuh \
// DEP-NEXT: {{.*}}/src/dialect/nested.cuh \
// DEP: {{.*}}/src/dialect/shared_plain.h
// ONE: x[0] = 3 + shared_plain;
// TWO: x[0] = 300 + shared_plain;
