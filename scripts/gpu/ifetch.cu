// How fast a warp scheduler issues straight-line code by the code's size,
// the warps of a block that walk it together and the warps an SM (docs/
// report.md, "The convolution's four-warp blocks, measured"). Each kernel
// is N independent FMAs in eight chains, unrolled (about 16 N bytes of
// SASS), with or without a 16-byte shared load every L FMAs (the
// convolution's inner loop has one about every 50) whose values the next
// load point's FMAs take as operands, or with a barrier every 256 FMAs,
// after one barrier that puts a block's warps in step as the
// convolution's staging does. Blocks of 4, 8, 16 or 32 warps put 1, 2, 4 or 8 warps of a block on each of the SM's four
// schedulers (a scheduler group walking the code together); dynamic shared
// memory caps the blocks an SM so that 8, 16, 32 or 64 warps an SM are
// resident. Each block reads the SM's clock (clock64) at its start and end;
// per SM, the span from its first block's start to its last block's end
// over the warp instructions of its blocks (FMAs and loads) gives the
// instructions a scheduler issues a cycle (1 at most on sm_90); the median
// over SMs of one launch after a warm-up.
//   nvcc -O3 -arch=sm_90 -std=c++20 ifetch.cu -o ifetch && ./ifetch
#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "check.h"

struct span_t {
  long long start, end;
  unsigned sm;
};

// The shared loads read 8 slots of 512 bytes, one 16-byte element a lane:
// conflict-free, 4 KiB in all; volatile so that none is merged or dropped.
constexpr int SharedBytes = 4096;

__device__ __forceinline__ float4 load_shared(unsigned addr) {
  float4 v;
  asm volatile("ld.volatile.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "r"(addr));
  return v;
}

// L FMAs after a load point: the last point's values in use as operands,
// this point's load in flight.
template <int L>
__device__ __forceinline__ void segment(float (&acc)[8], float4& pending, float4& next,
                                        unsigned addr, float a, float b) {
  pending = next;
  next = load_shared(addr);
  const float first[4] = {pending.x, pending.y, pending.z, pending.w};
#pragma unroll
  for (int i = 0; i < L; ++i)
    acc[i % 8] = fmaf(acc[i % 8], a, i < 4 ? first[i] : b);
}

// B FMAs, then a barrier.
template <int B> __device__ __forceinline__ void stride(float (&acc)[8], float a, float b) {
#pragma unroll
  for (int i = 0; i < B; ++i)
    acc[i % 8] = fmaf(acc[i % 8], a, b);
  __syncthreads();
}

template <int N, int L, int B> __global__ void walk(float* out, float a, float b, span_t* spans) {
  extern __shared__ float4 slots[];
  float acc[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    acc[i] = threadIdx.x + i;
  for (int i = threadIdx.x; i < SharedBytes / 16; i += blockDim.x)
    slots[i] = make_float4(b, b, b, b);
  const unsigned base = unsigned(__cvta_generic_to_shared(slots)) + (threadIdx.x % 32) * 16;
  float4 pending = make_float4(b, b, b, b), next = pending;
  __syncthreads();
  long long start = clock64();
  if constexpr (B > 0) { // a barrier every B FMAs, keeping a block's warps in step
    [&]<int... P>(std::integer_sequence<int, P...>) {
      ((void(P), stride<B>(acc, a, b)), ...);
    }(std::make_integer_sequence<int, N / B>());
  } else if constexpr (L == 0) {
#pragma unroll
    for (int i = 0; i < N; ++i)
      acc[i % 8] = fmaf(acc[i % 8], a, b);
  } else { // one call a load point: a plain loop this long is left rolled
    [&]<int... P>(std::integer_sequence<int, P...>) {
      (segment<L>(acc, pending, next, base + P % 8 * 512, a, b), ...);
    }(std::make_integer_sequence<int, N / L>());
  }
  long long end = clock64();
  float sum = next.x + next.y + next.z + next.w;
#pragma unroll
  for (int i = 0; i < 8; ++i)
    sum += acc[i];
  if (sum == 1.2345f) // never: keeps the chains
    out[threadIdx.x] = sum;
  __shared__ long long first, last;
  if (threadIdx.x == 0)
    first = start, last = end;
  __syncthreads();
  atomicMin(&first, start);
  atomicMax(&last, end);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    spans[blockIdx.x] = {first, last, sm};
  }
}

// The dynamic shared memory that lets `want` blocks of `kernel` on an SM
// and no more (at least the loads' 4 KiB); returns 0 where none does.
template <typename K> int shared_for(K kernel, int threads, int most, int want, int* got) {
  for (int bytes = most; bytes >= SharedBytes; bytes -= 256) {
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(got, kernel, threads, bytes) != cudaSuccess)
      return 0;
    if (*got == want)
      return bytes;
    if (*got > want)
      break;
  }
  return 0;
}

template <int N, int L, int B> int run(int warps, int sm_warps, int sms, float* out, span_t* dspans) {
  const int threads = warps * 32;
  auto kernel = walk<N, L, B>;
  cudaFuncAttributes attributes;
  CHECK(cudaFuncGetAttributes(&attributes, kernel));
  const int most = 227 * 1024 - int(attributes.sharedSizeBytes); // a block's, with the static part
  CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, most));
  int resident = 0;
  const int bytes = shared_for(kernel, threads, most, sm_warps / warps, &resident);
  if (!bytes) {
    std::printf("ifetch: %d warps a block, %d an SM: no shared size gives it\n", warps, sm_warps);
    return 0;
  }
  const int blocks = sms * 512 / warps; // 512 warps an SM in all
  std::vector<span_t> spans(blocks);
  for (int rep = 0; rep < 2; ++rep) { // a warm-up, then the one kept
    kernel<<<blocks, threads, bytes>>>(out, 1.0001f, 0.5f, dspans);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  CHECK(cudaMemcpy(spans.data(), dspans, blocks * sizeof(span_t), cudaMemcpyDeviceToHost));
  std::vector<long long> lo(sms, -1), hi(sms, 0);
  std::vector<int> count(sms, 0);
  for (const span_t& s : spans) {
    if (lo[s.sm] < 0 || s.start < lo[s.sm])
      lo[s.sm] = s.start;
    hi[s.sm] = std::max(hi[s.sm], s.end);
    ++count[s.sm];
  }
  const double instructions = B ? N + N / B : L ? N / L * (L + 1) : N;
  std::vector<double> rate;
  for (int sm = 0; sm < sms; ++sm)
    if (count[sm])
      rate.push_back(double(count[sm]) * warps * instructions / 4 / double(hi[sm] - lo[sm]));
  std::nth_element(rate.begin(), rate.begin() + rate.size() / 2, rate.end());
  std::printf("ifetch: %5d FMAs, load every %2d, barrier every %3d (%4d KiB of code), %4d threads (%d warp%s a "
              "scheduler), %2d warps an SM: %.3f instructions a scheduler a cycle\n",
              N, L, B, int(instructions * 16 / 1024), threads, warps / 4, warps > 4 ? "s" : "",
              resident * warps, rate[rate.size() / 2]);
  return 0;
}

template <int L, int B, int... Ns> int sweep(int sms, float* out, span_t* spans) {
  int failed = 0;
  for (int sm_warps : {8, 16, 32, 64})
    for (int warps : {4, 8, 16, 32})
      if (warps <= sm_warps)
        ((failed |= run<Ns, L, B>(warps, sm_warps, sms, out, spans)), ...);
  return failed;
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float* out;
  span_t* spans;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&spans, sms * 512 * sizeof(span_t)));
  int failed = sweep<0, 0, 1024, 2048, 3072, 4096, 6144, 8192>(sms, out, spans);
  failed |= sweep<48, 0, 1024, 2048, 3072, 4096, 6144, 8192>(sms, out, spans);
  failed |= sweep<0, 256, 1024, 2048, 3072, 4096, 6144, 8192>(sms, out, spans);
  return failed;
}
