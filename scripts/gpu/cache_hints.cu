// cache_hints: what the streaming cache hints (__ldcs/__stcs, PTX
// ld.global.cs/st.global.cs: evict first) cost a kernel that streams
// through DRAM, against the same kernel without them: the figure the
// model's device table holds for it (docs/report.md, the model). STREAM's
// kernels (read, fill, copy, triad) at several block shapes, each with no
// hint, hinted loads, hinted stores and both; the variants of a kernel run
// interleaved, 11 times each, so that drift over the run falls on all of
// them alike. Plain CUDA, built with nvcc alone on the GPU machine:
//   nvcc -O3 -arch=native cache_hints.cu -o cache_hints && ./cache_hints
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

template <bool Hint, class T> __device__ __forceinline__ T load(const T* p) {
  if constexpr (Hint)
    return __ldcs(p);
  else
    return *p;
}
template <bool Hint, class T> __device__ __forceinline__ void store(T* p, T v) {
  if constexpr (Hint)
    __stcs(p, v);
  else
    *p = v;
}

__device__ __forceinline__ float sum(float v) { return v; }
__device__ __forceinline__ float sum(float2 v) { return v.x + v.y; }
__device__ __forceinline__ float sum(float4 v) { return v.x + v.y + v.z + v.w; }
__device__ __forceinline__ float2 madd(float2 a, float s, float2 b) {
  return make_float2(a.x + s * b.x, a.y + s * b.y);
}
__device__ __forceinline__ float4 madd(float4 a, float s, float4 b) {
  return make_float4(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z, a.w + s * b.w);
}
__device__ __forceinline__ float madd(float a, float s, float b) { return a + s * b; }
template <class T> __device__ __forceinline__ T splat(float v);
template <> __device__ __forceinline__ float splat(float v) { return v; }
template <> __device__ __forceinline__ float2 splat(float v) { return make_float2(v, v); }
template <> __device__ __forceinline__ float4 splat(float v) { return make_float4(v, v, v, v); }

enum Kind { Read, Fill, Copy, Triad };
const char* const kind_names[] = {"read", "fill", "copy", "triad"};

// Each thread handles Items vectors a block's width apart, all loads issued
// before any store (as unrolled tiles do).
template <Kind K, class T, int Items, bool HintLoads, bool HintStores>
__global__ void stream(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ c,
                       float s) {
  size_t base = size_t(blockIdx.x) * blockDim.x * Items + threadIdx.x;
  T x[Items], y[Items];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if constexpr (K != Fill)
      x[i] = load<HintLoads>(a + base + i * blockDim.x);
    if constexpr (K == Triad)
      y[i] = load<HintLoads>(b + base + i * blockDim.x);
  }
  if constexpr (K == Read) {
    float acc = 0;
#pragma unroll
    for (int i = 0; i < Items; ++i)
      acc += sum(x[i]);
    if (acc == s) // never: s is not a sum of the data; keeps the loads
      c[0] = x[0];
  } else {
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      T v = K == Fill ? splat<T>(s) : K == Copy ? x[i] : madd(x[i], s, y[i]);
      store<HintStores>(c + base + i * blockDim.x, v);
    }
  }
}

const size_t n_floats = size_t(1) << 26; // 256 MiB an array: far beyond L2

struct Variant {
  const char* hint;
  void (*launch)(const float*, const float*, float*, int);
};

template <Kind K, class T, int Items, bool HL, bool HS>
void launch(const float* a, const float* b, float* c, int threads) {
  size_t vectors = n_floats / (sizeof(T) / sizeof(float));
  stream<K, T, Items, HL, HS><<<vectors / (size_t(threads) * Items), threads>>>(
      reinterpret_cast<const T*>(a), reinterpret_cast<const T*>(b), reinterpret_cast<T*>(c),
      -1.0f);
}

// The hint variants that differ for kernel K: a read has no stores to hint,
// a fill no loads.
template <Kind K, class T, int Items> std::vector<Variant> variants() {
  std::vector<Variant> v = {{"none", launch<K, T, Items, false, false>}};
  if (K != Fill)
    v.push_back({"loads", launch<K, T, Items, true, false>});
  if (K != Read)
    v.push_back({"stores", launch<K, T, Items, false, true>});
  if (K == Copy || K == Triad)
    v.push_back({"both", launch<K, T, Items, true, true>});
  return v;
}

struct Shape {
  int threads;
  const char* type;
  int items;
  std::vector<Variant> (*variants[4])();
};

template <class T, int Items> Shape shape(int threads, const char* type) {
  return {threads,
          type,
          Items,
          {variants<Read, T, Items>, variants<Fill, T, Items>, variants<Copy, T, Items>,
           variants<Triad, T, Items>}};
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, n_floats * sizeof(float)));
  CHECK(cudaMalloc(&b, n_floats * sizeof(float)));
  CHECK(cudaMalloc(&c, n_floats * sizeof(float)));
  CHECK(cudaMemset(a, 0, n_floats * sizeof(float)));
  CHECK(cudaMemset(b, 0, n_floats * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::printf("%s, %d SMs, %zu MiB an array\n", prop.name, prop.multiProcessorCount,
              n_floats * sizeof(float) >> 20);
  std::printf("%-6s %7s %-7s %5s %-7s %10s %8s\n", "kernel", "threads", "vector", "items", "hint",
              "median us", "/ none");
  const Shape shapes[] = {shape<float, 1>(256, "float"),   shape<float, 8>(256, "float"),
                          shape<float2, 4>(128, "float2"), shape<float4, 4>(256, "float4"),
                          shape<float4, 8>(512, "float4"), shape<float4, 2>(1024, "float4")};
  const int runs = 11;
  for (const Shape& sh : shapes)
    for (int k = 0; k < 4; ++k) {
      std::vector<Variant> vs = sh.variants[k]();
      std::vector<std::vector<float>> ms(vs.size(), std::vector<float>(runs));
      for (const Variant& v : vs) // warm up
        v.launch(a, b, c, sh.threads);
      for (int r = 0; r < runs; ++r)
        for (size_t i = 0; i < vs.size(); ++i) {
          CHECK(cudaEventRecord(start));
          vs[i].launch(a, b, c, sh.threads);
          CHECK(cudaEventRecord(stop));
          CHECK(cudaEventSynchronize(stop));
          CHECK(cudaEventElapsedTime(&ms[i][r], start, stop));
        }
      CHECK(cudaGetLastError());
      double none = 0;
      for (size_t i = 0; i < vs.size(); ++i) {
        std::sort(ms[i].begin(), ms[i].end());
        double us = ms[i][runs / 2] * 1e3;
        if (i == 0)
          none = us;
        std::printf("%-6s %7d %-7s %5d %-7s %10.1f %8.4f\n", kind_names[k], sh.threads, sh.type,
                    sh.items, vs[i].hint, us, us / none);
      }
    }
  return 0;
}
