// RUN: %check-golden %s -- --arch 75,80,90
// A `#line N` of the input (migrate writes them where its chain for this
// build adds lines) goes on as nvcc reads it: where the expansion needs a
// '#line' of its own (a branch beside a brace, the input after a header
// spliced in), it counts on from N, so that __LINE__, asserts and
// -lineinfo below are the numbers the input gave.
#line 100
#include "Inputs/dialect/once.cuh"
__global__ void lines(int *p) {
  if codegen ((int)__nvvm_arch >= 80) { p[0] = __LINE__; } else { p[0] = -__LINE__; }
  p[1] = __LINE__;
}
