// Declarations and members chosen per architecture become 'if codegen' at
// namespace and class scope; what cannot be a whole declaration of one
// scope stays a preprocessor conditional.
#include <cuda_runtime.h>

#if __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
#include <cuda_pipeline.h>
#endif

#if __CUDA_ARCH__ >= 800 // AUDIT: declaration
constexpr int TileSize = 128;
#else
constexpr int TileSize = 64;
#endif

// nvcc defines __CUDA_ARCH_LIST__ in every pass, the host's included: no
// site (converted, the host would read the other branch).
#ifdef __CUDA_ARCH_LIST__
constexpr int Listed = 1;
#else
constexpr int Listed = 0;
#endif

template <int N> struct Traits;

// A device function that exists from sm_80 on only, a type and a template
// specialization chosen per architecture.
#if __CUDA_ARCH__ >= 900 // AUDIT: declaration
__device__ int scale(int X) { return X * 3; }
using Acc = float;
template <> struct Traits<1> {
  static constexpr int Stages = 4;
};
#elif __CUDA_ARCH__ >= 800
__device__ int scale(int X) { return X * 2; }
using Acc = double;
template <> struct Traits<1> {
  static constexpr int Stages = 3;
};
#else
using Acc = int;
template <> struct Traits<1> {
  static constexpr int Stages = 2;
};
#endif

namespace tiles {
#ifdef __CUDA_ARCH__ // AUDIT: declaration
__device__ int Where = 1;
#else
int Where = 0;
#endif
} // namespace tiles

// An anonymous namespace is a namespace scope too (its members are the
// file's own, a common home for a .cu file's helpers).
namespace {
#if __CUDA_ARCH__ >= 800 // AUDIT: declaration
__device__ int bump(int X) { return X + 2; }
#else
__device__ int bump(int X) { return X + 1; }
#endif
} // namespace

struct Config {
#if __CUDA_ARCH__ >= 900 // AUDIT: declaration
  int Stages = 4;
  __device__ int load(const int *P) const { return __ldg(P) + Stages; }
#else
  int Stages = 2;
  __device__ int load(const int *P) const { return *P + Stages; }
#endif
};

// Inside one declaration: a parameter list, before its ';'.
__device__ int twiceOf(int X
#if __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
                       ,
                       int Y = 2
#endif
) {
  return 2 * X;
}

enum Kind {
  KindA,
#if __CUDA_ARCH__ >= 900 // AUDIT: list-entry
  KindHopper,
#endif
  KindLast
};

// A table whose entries exist per architecture, nullptr elsewhere.
__device__ int half(int X) { return X / 2; }
typedef int (*Op)(int);
__device__ Op Ops[] = {
    half,
#if __CUDA_ARCH__ >= 800 // AUDIT: list-entry
    scale,
#else
    nullptr,
#endif
    half,
};

// An entry split by a directive stays.
__constant__ int Weights[] = {1,
                              2
#if __CUDA_ARCH__ >= 800 // AUDIT: not-convertible
                              + 1
#endif
};

template <int N> __device__ int twice() { return 2 * N; }

__global__ void declKernel(int *Out) {
  // A constant of the body used below: 'using if codegen'.
#if __CUDA_ARCH__ >= 800 // AUDIT: local-declaration
  constexpr int Unroll = 8;
#else
  constexpr int Unroll = 4;
#endif
  Out[0] = twice<Unroll>() + TileSize + Config{}.load(Out) + KindLast +
           twiceOf(Out[2]) + Traits<1>::Stages + (int)Acc(Out[3]);
#if __CUDA_ARCH__ >= 800 // AUDIT: statement
  Out[4] = scale(Out[5]);
#endif
  Out[6] = Ops[2](Out[7]) + Weights[1] + Listed + bump(Out[10]);
  int Local[] = {
      1,
#if __CUDA_ARCH__ >= 900 // AUDIT: list-entry
      9,
#endif
  };
  Out[8] = Local[Out[9] & 1];
  Out[1] = 1 +
#if __CUDA_ARCH__ >= 900 // AUDIT: not-convertible
           2
#else
           3
#endif
      ;
}
