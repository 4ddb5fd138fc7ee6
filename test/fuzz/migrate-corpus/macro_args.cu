#define CALL(f, x) f(x)
#define TWO(a, b) ((a) + (b))
__device__ int g(int x) { return x; }
__host__ __device__ int h(int x) {
  int y = CALL(g,
#if __CUDA_ARCH__ >= 800
    x * 2
#else
    x
#endif
  );
  int z = TWO(y, CALL(g, __CUDA_ARCH__));
#if defined(__CUDA_ARCH__)
  z += 1;
#else
  z -= 1;
#endif
  return z;
}
