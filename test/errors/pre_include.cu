// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -include %t.missing.h 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%t.missing.h
// RUN: not %metacu audit %s -include %t.missing.h 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%t.missing.h
// RUN: not %metacu migrate %s -o %t.migrated -include %t.missing.h 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%t.missing.h
// RUN: not %metacu report %s --arch 80 -include %t.missing.h 2>&1 | FileCheck %s --check-prefix=MISSING -DFILE=%t.missing.h
// RUN: not %metacu %s -o %t.gen.cu --arch 80 -include %S/Inputs/pre_include_bad.h 2>&1 | FileCheck %s --check-prefix=BAD -DDIR=%S
// RUN: not %metacu %s -o %t.gen.cu --arch 80 '-DX(' 2>&1 | FileCheck %s --check-prefix=MACRO
// RUN: not test -e %t.gen.cu
// A file given with -include that is missing or does not compile, or a -D
// that does not, is an error at the option or in that file, not a crash;
// in audit and migrate too (they used to name '<built-in>:2:10').
constexpr int n = 2;
__global__ void k(int* x) {
  @meta for (int i = 0; i < n; ++i)
    x[i] = @(i);
}
// MISSING: metacu: error: '[[FILE]]' file not found (-include)
// MISSING-NOT: Stack dump
// BAD: [[DIR]]/Inputs/pre_include_bad.h:2:34: error: expected expression
// BAD-NOT: Stack dump
// MACRO: metacu: error: {{.*}}macro parameter list (-D or -U)
// MACRO-NOT: Stack dump
