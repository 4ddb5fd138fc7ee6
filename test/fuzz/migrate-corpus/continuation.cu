__device__ float k(float v) {
    /* block */ #if __CUDA_ARCH__ >= 750 && \
      __CUDA_ARCH__ < 900 /* spans
      lines */
  v *= 2.0f;
#  else  // the rest
  v *= 3.0f;
#endif
#if 0
#if __CUDA_ARCH__ >= 800
  v = 0;
#endif
#endif
  return v;
}
