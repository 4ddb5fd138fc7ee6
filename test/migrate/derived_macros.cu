// A macro is derived from __CUDA_ARCH__ where its expansion differs between
// the passes nvcc compiles, as the preprocessor defines it there: not
// because a header defines it under a conditional that names __CUDA_ARCH__
// but takes the same branch in every pass.
#include <cassert>
#include <cuda_runtime.h>

// glibc's assert, read through the toolkit's headers (some of them under
// '#if !defined(__CUDA_ARCH__) || (__CUDA_ARCH__ >= 350)'), expands the
// same in every pass: no site, and none for the test of CHECK below.
#define CHECK(x) assert(x)

// The toolkit defines cudaStreamTailLaunch under that same condition.
#define TAIL_STREAM cudaStreamTailLaunch

#if defined(CHECK) && defined(TAIL_STREAM)
#define CHECKED 1
#else
#define CHECKED 0
#endif

#if __CUDA_ARCH__ >= 800 // AUDIT: macro-definition
#define FAST_PATH 1
#endif

// Its body names a macro the passes define differently: derived, through
// a macro converted sites define alone, so it stays as written.
#define USE_FAST_PATH FAST_PATH // AUDIT: macro-definition

__global__ void kernel(int *Out, const int *In) {
  int V = In[threadIdx.x] + CHECKED;
#if USE_FAST_PATH // AUDIT: statement
  V *= 3;         // PTX: sm_80 has mad.lo.s32
  // PTX: sm_75 lacks mad.lo.s32
#endif
  Out[threadIdx.x] = V;
}

void launch(int *Out, const int *In) {
  CHECK(Out != nullptr);
  kernel<<<1, 32>>>(Out, In);
}
