// __CUDA_ARCH__'s value in the body of a macro used in code only (ggml's
// NO_DEVICE_CODE): the body takes the value form, and every use converts
// with it. A macro whose value is stringified, used in a condition or
// inside another macro stays.
#include <cstdio>
#include <cuda_runtime.h>

__device__ void no_device_code(int Line, int Arch) {
  printf("line %d: no device code for arch %d\n", Line, Arch);
}

#ifdef __CUDA_ARCH__ // AUDIT: macro-definition
#define NO_DEVICE_CODE no_device_code(__LINE__, __CUDA_ARCH__) // AUDIT: value
#else
#define NO_DEVICE_CODE
#endif

#define STR2(x) #x
#define STR(x) STR2(x)
#define ARCH_NUMBER __CUDA_ARCH__ + 0 // AUDIT: not-convertible
#define ARCH_TESTED __CUDA_ARCH__ // AUDIT: not-convertible

__global__ void unsupported(int *Out) {
  NO_DEVICE_CODE; // AUDIT: value
  Out[0] = 1;
}

__global__ void named(const char **Out, int *N) {
  *Out = STR(ARCH_NUMBER); // AUDIT: not-convertible
#if ARCH_TESTED >= 800 // AUDIT: statement
  *N = 1;
#else
  *N = 0;
#endif
}
// PTX: sm_80 has 800
