#ifndef DRIVER_UNEXPANDED_KERNELS_CUH
#define DRIVER_UNEXPANDED_KERNELS_CUH
@meta constexpr int kernel_lanes = 4;
__device__ inline int lanes() { return @(kernel_lanes); }
#endif
