// CHECK(call): prints the failed CUDA runtime call and its error to stderr
// and returns 1 from the enclosing function. Shared by the self-contained
// GPU microbenchmarks of this folder, each built with nvcc alone here.
#ifndef METACU_SCRIPTS_GPU_CHECK_H
#define METACU_SCRIPTS_GPU_CHECK_H

#include <cstdio>

#include <cuda_runtime.h>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e = (x);                                                                           \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e));                                 \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

#endif
