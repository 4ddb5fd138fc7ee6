#pragma once
#ifdef __CUDA_ARCH__
#include "kernels.cuh"
#endif
