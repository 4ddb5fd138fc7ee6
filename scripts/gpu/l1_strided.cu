// What a warp's global load that hits L1 costs the SM when its lanes are
// spread over several 128-byte lines: 4-byte loads (ld.global.ca), lane l
// at l x STRIDE bytes, STRIDE 4 (one line, coalesced) to 256 (32 lines, a
// line a lane), from a 32 KiB buffer every block reads over and over (it
// stays in L1). Each load of a thread's unrolled loop moves the warp's
// addresses on by a word (the same lines), and a pass by 8 KiB (three
// places in turn), so no two loads in a row are alike and ptxas keeps
// every one (scripts/gpu/l1_loads.cu's sector-per-lane rows lost theirs;
// the run counts the LDGs of the SASS). The loads are independent, so with 64
// warps an SM they measure L1's throughput. Cycles a warp load: the
// launch's time (cudaEvent, the median of 5 after a warm-up) times the SM
// clock over the warp loads an SM makes. The model charges L1 a global
// load's bytes at 128 a clock whatever its lines (docs/report.md, "Grid-
// stride loops, lanes that share a range, overlapping windows": a pass a
// line was tried and overcharged maxpool).
//   nvcc -O3 -arch=sm_90 -std=c++17 l1_strided.cu -o l1_strided
//   ./l1_strided SM_CLOCK_MHZ
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

constexpr int BufferBytes = 32768;
constexpr int Unroll = 16;
constexpr int Passes = 4096;
constexpr int Threads = 1024;

template <int Stride>
__global__ void strided(const unsigned *buffer, unsigned *out) {
  // Lane l's first word; a pass's words 8 KiB on, in three places that all
  // fit the buffer (2 x 8 KiB + 31 x 256 + 60 bytes at most).
  const char *lane = reinterpret_cast<const char *>(buffer) + threadIdx.x % 32 * Stride;
  unsigned acc = 0;
  for (int p = 0; p < Passes; ++p) {
    const char *at = lane + p % 3 * 8192;
#pragma unroll
    for (int k = 0; k < Unroll; ++k) {
      unsigned v;
      asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(at + 4 * k));
      acc ^= v;
    }
  }
  if (acc == 0x12345678u)
    out[0] = acc;
}

template <int Stride>
int measure(const unsigned *buffer, unsigned *out, int sms, double mhz) {
  int blocksPerSm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, strided<Stride>, Threads, 0));
  int blocks = sms * blocksPerSm;
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  strided<Stride><<<blocks, Threads>>>(buffer, out);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> ms;
  for (int r = 0; r < 5; ++r) {
    CHECK(cudaEventRecord(start));
    strided<Stride><<<blocks, Threads>>>(buffer, out);
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start, stop));
    ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double warpLoadsPerSm = double(blocksPerSm) * (Threads / 32) * Passes * Unroll;
  double cycles = ms[2] * 1e-3 * mhz * 1e6 / warpLoadsPerSm;
  // Past 128 bytes apart each lane's word lies on a line of its own.
  int lines = std::min(32, std::max(1, 32 * Stride / 128));
  std::printf("stride %3d B: %2d lines a warp load, warps/SM %2d: %6.3f cycles a warp load, "
              "%5.3f cycles a line (%.1f us)\n",
              Stride, lines, blocksPerSm * Threads / 32, cycles, cycles / lines, ms[2] * 1e3);
  return 0;
}

int main(int argc, char **argv) {
  double mhz = argc > 1 ? std::atof(argv[1]) : 1980;
  int device = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  std::printf("# %s, %d SMs, SM clock taken as %.0f MHz\n", prop.name, sms, mhz);
  unsigned *buffer = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&buffer, BufferBytes));
  CHECK(cudaMalloc(&out, 4));
  CHECK(cudaMemset(buffer, 1, BufferBytes));
  return measure<4>(buffer, out, sms, mhz) || measure<8>(buffer, out, sms, mhz) ||
         measure<16>(buffer, out, sms, mhz) || measure<32>(buffer, out, sms, mhz) ||
         measure<64>(buffer, out, sms, mhz) || measure<128>(buffer, out, sms, mhz) ||
         measure<256>(buffer, out, sms, mhz);
}
