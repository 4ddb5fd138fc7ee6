// Sites inside a conditional that tests the architecture but that every
// pass of this configuration takes alike (XGBoost's math.h: R's strict
// mode off, so host and device passes all take the '#else'). The outer
// conditional stays as written; the sites inside convert, and expand
// accepts their 'if codegen' because every nvcc pass keeps that branch.
#include <cuda_runtime.h>
#include <math.h>

#define STRICT_MODE 0

#if STRICT_MODE && !defined(__CUDA_ARCH__) // AUDIT: constant
bool isNan(double V);
#else
__host__ __device__ inline bool isNan(float X) {
#if defined(__CUDA_ARCH__) // AUDIT: host-device-split
  return isnan(X);
#else
  return X != X;
#endif
}
#endif

__global__ void nanKernel(const float *In, int *Out) {
  Out[0] = isNan(In[0]);
}
