// How fast a warp scheduler issues straight-line code by the code's size
// and the warps of a block that walk it together (docs/report.md, "The
// convolution's four-warp blocks, measured"). Each kernel is N independent
// FMAs in eight chains, unrolled (about 16 N bytes of SASS, no memory
// access between its two clock reads), run by blocks of 128 threads (one
// warp on each of the SM's four schedulers) or 256 (two), after one barrier
// that puts a block's warps in step as the convolution's staging does.
// Each block reads the SM's clock (clock64) at its start and end; per SM,
// the span from its first block's start to its last block's end over the
// warp instructions of its blocks gives the FMAs a scheduler issues a
// cycle (1 at most on sm_90); the median over SMs of one launch after a
// warm-up.
//   nvcc -O3 -arch=sm_90 -std=c++17 ifetch.cu -o ifetch && ./ifetch
#include <algorithm>
#include <cstdio>
#include <vector>

#include "check.h"

struct span_t {
  long long start, end;
  unsigned sm;
};

template <int N> __global__ void walk(float* out, float a, float b, span_t* spans) {
  float acc[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    acc[i] = threadIdx.x + i;
  __syncthreads();
  long long start = clock64();
#pragma unroll
  for (int i = 0; i < N; ++i)
    acc[i % 8] = fmaf(acc[i % 8], a, b);
  long long end = clock64();
  float sum = 0;
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

template <int N> int run(int threads, int sms, float* out, span_t* dspans) {
  const int warps = threads / 32;
  const int blocks = sms * 512 / warps; // 8 waves of 64 warps an SM
  std::vector<span_t> spans(blocks);
  for (int rep = 0; rep < 2; ++rep) { // a warm-up, then the one kept
    walk<N><<<blocks, threads>>>(out, 1.0001f, 0.5f, dspans);
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
  std::vector<double> rate;
  for (int sm = 0; sm < sms; ++sm)
    if (count[sm])
      rate.push_back(double(count[sm]) * warps * N / 4 / double(hi[sm] - lo[sm]));
  std::nth_element(rate.begin(), rate.begin() + rate.size() / 2, rate.end());
  std::printf("ifetch: %5d FMAs (%4d KiB of code), %3d threads (%d warp%s a scheduler): "
              "%.3f FMAs a scheduler a cycle\n",
              N, N * 16 / 1024, threads, warps / 4, warps > 4 ? "s" : "", rate[rate.size() / 2]);
  return 0;
}

template <int... Ns> int sweep(int threads, int sms, float* out, span_t* spans) {
  int failed = 0;
  ((failed |= run<Ns>(threads, sms, out, spans)), ...);
  return failed;
}

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  float* out;
  span_t* spans;
  CHECK(cudaMalloc(&out, 1024 * sizeof(float)));
  CHECK(cudaMalloc(&spans, sms * 512 * sizeof(span_t)));
  int failed = 0;
  for (int threads : {128, 256})
    failed |= sweep<256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192>(threads, sms, out, spans);
  return failed;
}
