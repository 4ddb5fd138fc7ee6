// Statement-level __CUDA_ARCH__ ladders inside device functions: all of
// them become 'if codegen' chains. Warp reductions CUDA declares only for
// sm_80 and newer must stay out of the sm_75 compilation.
#include <cuda_runtime.h>

#define MY_ARCH __CUDA_ARCH__ // AUDIT: not-convertible

#if __CUDA_ARCH__ >= 800 // AUDIT: macro-definition
#define HAS_REDUX 1
#endif

__device__ unsigned warpSum(unsigned V) {
  unsigned R;
#if __CUDA_ARCH__ >= 800 // AUDIT: statement
  // One instruction from sm_80 on.
  R = __reduce_add_sync(0xffffffffu, V); // PTX: sm_80 has redux.sync.add
  // PTX: sm_75 lacks redux.sync
#else
  R = V;
  for (int Off = 16; Off > 0; Off /= 2)
    R += __shfl_down_sync(0xffffffffu, R, Off);
#endif // __CUDA_ARCH__ >= 800
  return R;
}

__device__ float scale(float X) {
  float S = 1.0f;
#if MY_ARCH >= 900 // AUDIT: statement
  S = 4.0f;
#elif MY_ARCH >= 800
  S = 2.0f;
#endif
  return X * S;
}

__device__ unsigned warpMax(unsigned V) {
#ifdef HAS_REDUX // AUDIT: statement
  return __reduce_max_sync(0xffffffffu, V);
#else
  for (int Off = 16; Off > 0; Off /= 2) {
    unsigned O = __shfl_down_sync(0xffffffffu, V, Off);
    V = O > V ? O : V;
  }
  return V;
#endif
}

__global__ void reduceKernel(const unsigned *In, unsigned *Out, float *F) {
  unsigned V = In[threadIdx.x];
  Out[0] = warpSum(V);
  Out[1] = warpMax(V);
  F[threadIdx.x] = scale(F[threadIdx.x]);
    #if __CUDA_ARCH__ >= 900 // AUDIT: statement
    __syncwarp();
    #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 1000 // AUDIT: statement
    Out[2] = 90;
    #endif
    #endif
}
