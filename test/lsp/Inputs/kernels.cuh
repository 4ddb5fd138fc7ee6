// A dialect header (test/lsp/test_lsp.py): a helper whose loop a meta
// loop unrolls.
#pragma once

@meta int lanes = 4;

__device__ inline float sum_lanes(const float* v) {
  float s = 0;
  @meta for (int i = 0; i < lanes; ++i)
    s += v[i];
  return s;
}
