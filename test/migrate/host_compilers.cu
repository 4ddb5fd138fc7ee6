// Where the host pass chooses among branches by the host compiler's or the
// platform's macros, the branches no pass compiles here are another host's
// (MSVC's on Windows): 'if codegen' over this build's passes alone would
// keep this build's branch, and the file would no longer compile there.
// Those branches stay an #if inside the chain's 'else'. A branch no
// architecture compiles (an older GPU's) is dropped as before.
#include <cuda_runtime.h>

__host__ __device__ inline int popc(unsigned V) {
#if defined(__CUDA_ARCH__) // AUDIT: host-device-split
  return __popc(V);
#elif defined(__GNUC__) || defined(__clang__)
  return __builtin_popcount(V);
#elif defined(_MSC_VER)
  return __popcnt(V);
#else
  int N = 0;
  for (; V; V &= V - 1)
    ++N;
  return N;
#endif
}

namespace swap {
#if defined(__CUDA_ARCH__) // AUDIT: declaration
__device__ inline unsigned bytes(unsigned V) { return __byte_perm(V, 0, 0x0123); }
#elif defined(__GLIBC__)
inline unsigned bytes(unsigned V) { return __builtin_bswap32(V); }
#else
inline unsigned bytes(unsigned V) { return _byteswap_ulong(V); }
#endif
} // namespace swap

__host__ __device__ inline int lanes(int V) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700 // AUDIT: host-device-split
  return V + 1;
#elif defined(__CUDA_ARCH__)
  return V + 2; // PTX: sm_75 has add.s32
#else
  return V;
#endif
}

__global__ void kernel(unsigned *P) {
  P[0] = popc(P[1]) + swap::bytes(P[2]) + lanes(P[3]);
}
