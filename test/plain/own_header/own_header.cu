// A header beside the file named like a system header: nvcc finds it for
// the quote-include alone, and so must the expansion compiled elsewhere
// (an -I of the file's directory would give it to libcu++'s <math.h> too).
#include <cuda/std/cmath>
#include <cuda_runtime.h>

#include "math.h"

__global__ void norms(const float *In, float *Out) {
  unsigned I = threadIdx.x;
  Out[I] = sqrtf(own::square(In[I]) + 1.0f) + cuda::std::fabs(In[I]);
}
