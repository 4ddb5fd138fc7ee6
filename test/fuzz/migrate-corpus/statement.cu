#define ARCH_MIN 800
#if __CUDA_ARCH__ >= 900
#define FAST 1
#endif
__device__ int f(int x) {
#if __CUDA_ARCH__ >= ARCH_MIN // fast path
  x += 2;
#elif defined(__CUDA_ARCH__)
  x += 1;
#else
  x = 0;
#endif
#ifdef FAST
  x *= 3;
#endif
  constexpr int cc = __CUDA_ARCH__ + 0;
  return x + cc;
}
