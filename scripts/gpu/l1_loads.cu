// What a warp's load costs an SM when it hits: global loads that find their
// data in L1 against shared loads (docs/report.md, the model's L1 cost of a
// global load). Every block reads one 32 KiB buffer over and over, in
// global memory (ld.global.ca, L1-cached, and ld.global.nc, the read-only
// path that `const __restrict__` loads take) or in shared memory
// (ld.shared), 4, 8 or 16 bytes a thread, the lanes of a warp on
// consecutive words (coalesced), all on one word (broadcast) or each on a
// sector of its own (32 bytes apart). The loads are independent (addresses
// from the loop counter alone), so with the SM full of warps they measure
// its throughput, not their latency; each loaded word is folded into one
// register by xor (one or two instructions a load). Each block reads the
// SM's clock (clock64) at its start and end; per SM, the span from its
// first block's start to its last block's end over the warp loads of its
// blocks gives cycles a warp load; the median of 5 launches after a warm-up.
//   nvcc -O3 -arch=sm_90 -std=c++17 l1_loads.cu -o l1_loads
//   ./l1_loads; ./l1_loads once   (one launch each, for Nsight Compute)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

constexpr int BufferBytes = 32768;
constexpr int Unroll = 16;

enum Space { GlobalCa, GlobalNc, Shared };
enum Pattern { Coalesced, Broadcast, SectorPerLane };

template <Space S, int Words>
__device__ __forceinline__ unsigned load(const unsigned *g, unsigned sAddr,
                                         unsigned byteOffset) {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if constexpr (S == Shared) {
    unsigned p = sAddr + byteOffset;
    if constexpr (Words == 1)
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(a) : "r"(p));
    else if constexpr (Words == 2)
      asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];"
                   : "=r"(a), "=r"(b)
                   : "r"(p));
    else
      asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                   : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                   : "r"(p));
  } else {
    const char *p = reinterpret_cast<const char *>(g) + byteOffset;
    if constexpr (S == GlobalCa) {
      if constexpr (Words == 1)
        asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(a) : "l"(p));
      else if constexpr (Words == 2)
        asm volatile("ld.global.ca.v2.u32 {%0, %1}, [%2];"
                     : "=r"(a), "=r"(b)
                     : "l"(p));
      else
        asm volatile("ld.global.ca.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "l"(p));
    } else {
      if constexpr (Words == 1)
        asm volatile("ld.global.nc.u32 %0, [%1];" : "=r"(a) : "l"(p));
      else if constexpr (Words == 2)
        asm volatile("ld.global.nc.v2.u32 {%0, %1}, [%2];"
                     : "=r"(a), "=r"(b)
                     : "l"(p));
      else
        asm volatile("ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a), "=r"(b), "=r"(c), "=r"(d)
                     : "l"(p));
    }
  }
  return a ^ b ^ c ^ d;
}

template <Space S, int Words, Pattern P>
__global__ void loads(const unsigned *__restrict__ g, unsigned *out,
                      long long *clocks, int iterations) {
  __shared__ unsigned s[BufferBytes / 4];
  long long start = clock64();
  if constexpr (S == Shared) {
    for (int i = threadIdx.x; i < BufferBytes / 4; i += blockDim.x)
      s[i] = g[i];
    __syncthreads();
  }
  unsigned sAddr = unsigned(__cvta_generic_to_shared(s));
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // A warp's bytes a load, and where its lane reads within them.
  constexpr unsigned Span = P == Coalesced     ? 32 * 4 * Words
                            : P == Broadcast ? 4 * Words
                                             : 32 * 32;
  unsigned laneOffset = P == Coalesced     ? lane * 4 * Words
                        : P == Broadcast ? 0
                                         : lane * 32;
  // A pass of the loop reads Unroll consecutive spans of one slot, at
  // constant offsets from the slot's start (no address arithmetic a load);
  // the warps start at different slots and move on by one a pass.
  constexpr unsigned Slots = BufferBytes / (Unroll * Span);
  static_assert(Slots >= 2, "a pass must move to other addresses");
  unsigned acc = 0;
  for (int i = 0; i < iterations; ++i) {
    unsigned slot = ((warp * 7 + unsigned(i)) % Slots) * (Unroll * Span);
#pragma unroll
    for (int j = 0; j < Unroll; ++j)
      acc ^= load<S, Words>(g, sAddr, slot + laneOffset + j * Span);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sm;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
    clocks[3 * blockIdx.x] = start;
    clocks[3 * blockIdx.x + 1] = clock64();
    clocks[3 * blockIdx.x + 2] = sm;
  }
}

static const char *spaceName(Space S) {
  return S == GlobalCa ? "ld.global.ca" : S == GlobalNc ? "ld.global.nc"
                                                        : "ld.shared";
}
static const char *patternName(Pattern P) {
  return P == Coalesced ? "coalesced" : P == Broadcast ? "broadcast"
                                                       : "sector-per-lane";
}

struct Buffers {
  unsigned *g, *out;
  long long *clocks;
  int smCount;
  // One launch of each kernel, untimed, for Nsight Compute.
  bool once;
};

template <Space S, int Words, Pattern P>
static int run(const Buffers &B, int threads, int blocksPerSM) {
  int blocks = B.smCount * blocksPerSM;
  int iterations = 2048;
  std::vector<long long> c(3 * blocks);
  std::vector<double> perLoad, us;
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  if (B.once) {
    loads<S, Words, P><<<blocks, threads>>>(B.g, B.out, B.clocks, iterations);
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  for (int run = 0; run < 6; ++run) {
    CHECK(cudaEventRecord(e0));
    loads<S, Words, P><<<blocks, threads>>>(B.g, B.out, B.clocks, iterations);
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaGetLastError());
    if (run == 0)
      continue; // warm-up
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    CHECK(cudaMemcpy(c.data(), B.clocks, c.size() * 8,
                     cudaMemcpyDeviceToHost));
    // Per SM: its blocks' span and warp loads; the median over SMs.
    std::vector<long long> lo(B.smCount, INT64_MAX), hi(B.smCount, 0);
    std::vector<int> n(B.smCount, 0);
    for (int b = 0; b < blocks; ++b) {
      int sm = int(c[3 * b + 2]);
      lo[sm] = std::min(lo[sm], c[3 * b]);
      hi[sm] = std::max(hi[sm], c[3 * b + 1]);
      ++n[sm];
    }
    std::vector<double> per;
    for (int sm = 0; sm < B.smCount; ++sm)
      if (n[sm])
        per.push_back(double(hi[sm] - lo[sm]) /
                      (double(n[sm]) * threads / 32 * iterations * Unroll));
    std::sort(per.begin(), per.end());
    perLoad.push_back(per[per.size() / 2]);
    us.push_back(ms * 1e3);
  }
  std::sort(perLoad.begin(), perLoad.end());
  std::sort(us.begin(), us.end());
  double cyc = perLoad[perLoad.size() / 2];
  int sectors = P == Coalesced ? Words * 4 : P == Broadcast ? 1 : 32;
  std::printf("%-13s %2d B %-15s warps/SM %2d: %6.3f cycles a warp load, "
              "%6.1f thread B/clk, %5.2f sectors/clk, %6.3f cycles a sector "
              "(%.1f us)\n",
              spaceName(S), 4 * Words, patternName(P),
              threads / 32 * blocksPerSM, cyc, 32 * 4 * Words / cyc,
              sectors / cyc, cyc / sectors, us[us.size() / 2]);
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  return 0;
}

// 1 where a CUDA call failed (CHECK, check.h), as each run returns.
template <Space S> static int widths(const Buffers &B, int t, int b) {
  return run<S, 1, Coalesced>(B, t, b) || run<S, 2, Coalesced>(B, t, b) ||
         run<S, 4, Coalesced>(B, t, b) || run<S, 1, Broadcast>(B, t, b) ||
         run<S, 2, Broadcast>(B, t, b) || run<S, 4, Broadcast>(B, t, b) ||
         run<S, 1, SectorPerLane>(B, t, b);
}

int main(int argc, char **argv) {
  Buffers B;
  B.once = argc > 1;
  CHECK(cudaDeviceGetAttribute(&B.smCount, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %d SMs\n", prop.name, B.smCount);
  CHECK(cudaMalloc(&B.g, BufferBytes));
  std::vector<unsigned> h(BufferBytes / 4);
  for (size_t i = 0; i < h.size(); ++i)
    h[i] = unsigned(i * 2654435761u);
  CHECK(cudaMemcpy(B.g, h.data(), BufferBytes, cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&B.out, size_t(B.smCount) * 4 * 1024 * 4));
  CHECK(cudaMalloc(&B.clocks, size_t(B.smCount) * 4 * 3 * 8));
  // The SM full (2 blocks of 1024 threads, 64 warps), then 16 warps.
  for (auto [threads, blocksPerSM] : {std::pair{1024, 2}, std::pair{512, 1}}) {
    if (widths<GlobalCa>(B, threads, blocksPerSM) ||
        widths<GlobalNc>(B, threads, blocksPerSM) ||
        widths<Shared>(B, threads, blocksPerSM))
      return 1;
  }
  return 0;
}
