// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DDIR=%S
// RUN: not test -e %t.gen.cu
// A construct in a dialect header that does not parse is reported at the
// header's line and column, not at the #include.
int before;
#include "Inputs/header_unbalanced.cuh"
int after;
// CHECK: [[DIR]]/Inputs/header_unbalanced.cuh:5:35: error: unbalanced ']': expected ')' to match the '(' at line 5
// CHECK-NEXT: {{^}}  @meta for (int i = 0; i < 4; ++i]
