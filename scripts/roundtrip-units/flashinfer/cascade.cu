// Instantiates flashinfer's attention-state merge for half.
#include <cuda_fp16.h>
#include <flashinfer/attention/cascade.cuh>

cudaError_t run_merge(half *va, float *sa, half *vb, float *sb, half *v,
                      float *s) {
  return flashinfer::MergeState(va, sa, vb, sb, v, s, 128u, 32u, 128u);
}
