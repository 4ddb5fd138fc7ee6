// Host/device splits inside __host__ __device__ functions convert; the
// host pass is (int)__nvvm_arch == 0.
#include <cuda_runtime.h>
#include <cstdio>

__host__ __device__ int laneOrZero() {
#ifdef __CUDA_ARCH__ // AUDIT: host-device-split
  return threadIdx.x & 31;
#else
  return 0;
#endif
}

__host__ __device__ void trace(int V) {
#if !defined(__CUDA_ARCH__) // AUDIT: host-device-split
  std::printf("host %d\n", V);
#endif
}

__host__ __device__ int ladder() {
  int R = 0;
#if __CUDA_ARCH__ >= 900 // AUDIT: statement
  R = 3;
#elif __CUDA_ARCH__ >= 800
  R = 2;
#elif defined(__CUDA_ARCH__)
  R = 1;
#endif
  return R;
}

// On every architecture nvcc 13 has, this comparison only tells device
// from host.
__host__ __device__ int warpOr32() {
#if __CUDA_ARCH__ >= 700 // AUDIT: host-device-split
  return warpSize;
#else
  return 32;
#endif
}

__global__ void hdKernel(int *Out) {
  trace(1);
  Out[threadIdx.x] = laneOrZero() + ladder() + warpOr32();
}

int hostSide() { trace(2); return laneOrZero() + ladder() + warpOr32(); }
