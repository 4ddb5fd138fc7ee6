// A condition that tests another build's name and the architecture
// together (an AMD GPU's feature macro beside one derived from
// __CUDA_ARCH__, `!defined(GGML_USE_MUSA) && __CUDA_ARCH__ >= 800`)
// chooses for that build as much as for the architecture, and no part of
// it alone says which: TURING_MMA_AVAILABLE below is itself defined under
// a test of GGML_USE_HIP. Where every such name is as here (undefined),
// the passes' branches are the architecture's choice: the 'if codegen'
// chain goes under `#if` of that, and the conditional as written follows
// as its `#elif`, which the other builds preprocess as before (the
// OTHER-BUILD lines check it, each a build whose names differ from this
// one's in every site). Its branches come twice and the lines below move,
// which only a file that expands no __LINE__ from there on allows. A
// branch's directives come twice with it (each pass reads one copy): a
// '#define', '#pragma unroll', a conditional every pass takes alike; a
// branch holding a conditional on the architecture stays as it is (migrate
// would rewrite one copy of it).
// OTHER-BUILD: -DGGML_USE_HIP -DGGML_USE_MUSA -DCDNA
// OTHER-BUILD: -DGGML_USE_HIP -DGGML_USE_MUSA
#include <cuda_runtime.h>

#if defined(GGML_USE_HIP) && defined(CDNA)
#define AMD_MFMA_AVAILABLE
#endif

#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800 // AUDIT: macro-definition
#define AMPERE_MMA_AVAILABLE
#endif

__device__ int tileStride(const int *P, int X) {
#if defined(AMD_MFMA_AVAILABLE) || defined(AMPERE_MMA_AVAILABLE) // AUDIT: local-declaration
  const int *Q = P + 1;
  int Stride = 2;
#else
  const int *Q = P + 3;
  int Stride = 4;
#endif // defined(AMD_MFMA_AVAILABLE) || defined(AMPERE_MMA_AVAILABLE)
  return Q[X * Stride];
}

__device__ int notMusa(int X) {
#if !defined(GGML_USE_MUSA) && __CUDA_ARCH__ >= 800 // AUDIT: statement
  X += 1;
#elif __CUDA_ARCH__ >= 750
  X += 2;
#else
  X += 3;
#endif
  return X;
}

__device__ int hipOrHopper(int X) {
#ifndef GGML_USE_HIP
  X -= 1;
#endif
#if defined(GGML_USE_HIP) || __CUDA_ARCH__ >= 900 // AUDIT: statement
  X *= 3;
#endif
  return X;
}

__device__ int unrolled(const int *P) {
  int S = 0;
#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800 // AUDIT: statement
#pragma unroll
  for (int I = 0; I < 4; ++I)
    S += P[I];
#if defined(GGML_USE_MUSA)
  S *= 2;
#endif
#else
  S = P[0];
#endif
  return S;
}

#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 900 // AUDIT: macro-definition
#define HOPPER_AVAILABLE
#endif

// CUTLASS's arch/config.h: the name this build's #if would test is defined
// under the test of the architecture (expand would read that #if as chosen
// per architecture): it stays.
#if !defined(SM90_ENABLED) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 // AUDIT: not-convertible
#define SM90_ENABLED 1
#endif

__device__ int nested(int X) {
#if defined(GGML_USE_HIP) || __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
  X += 1;
#ifdef HOPPER_AVAILABLE // AUDIT: not-convertible
  X += 2;
#endif
#endif
  return X;
}

__global__ void kernel(int *P) {
  P[0] = tileStride(P, P[1]) + notMusa(P[2]) + hipOrHopper(P[3]) +
         unrolled(P + 4) + nested(P[8]);
}
