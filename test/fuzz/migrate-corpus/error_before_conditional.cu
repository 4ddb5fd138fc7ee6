__device__ inassemblernt x) {
#if __CUDA_ARCH__ >= 800
] x *= 2;
#endif
  return x;}
