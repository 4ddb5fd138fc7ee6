// ggml's feature macros: a conditional that tests macros defined under
// tests of the architecture together with another build's names
// (AMD_MFMA_AVAILABLE, defined for HIP builds only). VOLTA_MMA_AVAILABLE is
// defined under '__CUDA_ARCH__ == 700', which no pass nvcc 13 makes
// compiles: the guard of this build tests what its definition is under
// (USE_HIP), not it, which expand would read as chosen per architecture.
#if defined(USE_HIP) && defined(CDNA)
#define AMD_MFMA_AVAILABLE
#endif
#if !defined(USE_HIP) && __CUDA_ARCH__ == 700 // AUDIT: constant
#define VOLTA_MMA_AVAILABLE
#endif
#if !defined(USE_HIP) && __CUDA_ARCH__ >= 800 // AUDIT: macro-definition
#define AMPERE_MMA_AVAILABLE
#endif

__global__ void kernel(int *Out) {
  int X = Out[threadIdx.x];
#if defined(VOLTA_MMA_AVAILABLE) || defined(AMPERE_MMA_AVAILABLE) || defined(AMD_MFMA_AVAILABLE) // AUDIT: statement
  // Written again in the chain: it reads alike in every pass.
#ifdef VOLTA_MMA_AVAILABLE
  X *= 5;
#else
  X *= 3;
#endif
#else
  X += 1;
#endif
  Out[threadIdx.x] = X + __LINE__;
}
