// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DDIR=%S
// RUN: not test -e %t.gen.cu
// A failure in a dialect header's meta code points into the header.
#include "Inputs/header_static_assert.cuh"
// CHECK: [[DIR]]/Inputs/header_static_assert.cuh:4:1: error: static assertion failed: tile_limit must be a multiple of 48
// CHECK-NEXT: @meta static_assert(tile_limit % 48 == 0, "tile_limit must be a multiple of 48");
// CHECK-NEXT: ^
