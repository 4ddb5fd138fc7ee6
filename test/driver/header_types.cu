// RUN: %metacu %s -o - --arch 80 | FileCheck %s
// Enumerations and aggregates from a local header: reflection and spelling
// work there too (a comment after the #include included).
#include "Inputs/types.h" // the tuning types
__global__ void k(int* out) {
  @meta for enum (auto m : tuning::mode)
    out[@((int)m)] = @(metacu::enum_name(m).size());
  @meta tuning::point p{3, 4};
  tuning::point q = p;
  tuning::mode r = @(tuning::mode::exact);
}
// CHECK: out[0] = 4ul;
// CHECK: out[1] = 5ul;
// CHECK: tuning::point q = tuning::point{3, 4};
// CHECK: tuning::mode r = tuning::mode::exact;
