// atomics: how many 32-bit global atomic adds the L2 applies a clock when
// they go to few addresses (docs/report.md, "Global atomics to few
// addresses, measured"): one address, the words of one 128-byte line, N
// distinct lines; `red` (PTX red.global.add.u32: no result) against `atom`
// (atom.global.add.u32, its result used), and a float red.global.add.f32,
// spelled in PTX so that none becomes another.
// Every warp of a full GPU (8 blocks of 256 threads an SM) makes `iters`
// updates in a row; update i of warp w goes to line (w + i) mod `lines`, so
// the lines are hit evenly and at once. In a warp, `lanes` lanes take part
// (1: lane 0 alone, as one thread a block adding a block's sum; 32: all)
// and lane l adds to word l mod `words` of the line (1: every lane on one
// address; 32: a lane a word, as a block adding its bins). The lines are
// 128 bytes apart in an 8 MiB buffer that stays in L2. Printed per case:
// the median of 5 launches after a warm-up (cudaEvent), the updates (one a
// lane), and the rates a clock of the SM clock (the boost clock the
// attribute gives): updates, warp instructions, and updates and warp
// instructions a line.
//   nvcc -O3 -arch=sm_90 atomics.cu -o atomics && ./atomics
#include <algorithm>
#include <cstdio>
#include <vector>

#include "check.h"

constexpr int LineWords = 32;
constexpr int MostLines = 1 << 16;
constexpr int Threads = 256;
constexpr int BlocksPerSM = 8;

// What each update is: red.global.add.u32, atom.global.add.u32 (its result
// used) or red.global.add.f32 (a float sum, as a reduction's).
enum Kind { RedU32, AtomU32, RedF32 };
constexpr const char *KindNames[] = {"red.u32", "atom.u32", "red.f32"};

template <Kind K>
__global__ void update(unsigned *words, unsigned line_mask, unsigned word_mask,
                       int lanes, int iters, unsigned *sink) {
  const unsigned lane = threadIdx.x % 32;
  if (lane >= unsigned(lanes))
    return;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  unsigned *mine = words + (lane & word_mask);
  unsigned got = 0;
  for (int i = 0; i < iters; ++i) {
    unsigned *p = mine + ((warp + i) & line_mask) * LineWords;
    if constexpr (K == AtomU32) {
      unsigned old;
      asm volatile("atom.global.add.u32 %0, [%1], 1;"
                   : "=r"(old)
                   : "l"(p)
                   : "memory");
      got += old;
    } else if constexpr (K == RedU32) {
      asm volatile("red.global.add.u32 [%0], 1;" ::"l"(p) : "memory");
    } else {
      asm volatile("red.global.add.f32 [%0], 0f3F800000;" ::"l"(p) : "memory");
    }
  }
  if (K == AtomU32 &&
      got == 0x9e3779b9u) // never in practice: keeps the results in use
    sink[0] = got;
}

struct timer {
  cudaEvent_t start, stop;
};

template <Kind K>
int run(const timer &t, unsigned *words, unsigned *sink, int sms, double ghz,
        int lines, int words_hit, int lanes) {
  const int blocks = sms * BlocksPerSM;
  auto launch = [&](int iters, float *ms) -> int {
    CHECK(cudaEventRecord(t.start));
    update<K><<<blocks, Threads>>>(words, lines - 1, words_hit - 1, lanes,
                                   iters, sink);
    CHECK(cudaEventRecord(t.stop));
    CHECK(cudaEventSynchronize(t.stop));
    CHECK(cudaGetLastError());
    CHECK(cudaEventElapsedTime(ms, t.start, t.stop));
    return 0;
  };
  // Enough updates a warp that a launch takes about 2 ms (at most 1,024).
  float trial = 0;
  if (launch(8, &trial) || launch(8, &trial))
    return 1;
  const int iters = std::clamp(int(8 * 2.0 / std::max(trial, 1e-3f)), 8, 1024);
  std::vector<float> ms(5);
  if (launch(iters, &ms[0])) // warm-up
    return 1;
  for (float &m : ms)
    if (launch(iters, &m))
      return 1;
  std::sort(ms.begin(), ms.end());
  const double median = ms[ms.size() / 2];
  const double warps = double(blocks) * Threads / 32 * iters;
  const double updates = warps * lanes;
  const double clocks = median * 1e6 * ghz;
  std::printf("atomics: %-8s lines %6d words %2d lanes %2d iters %5d: %9.4f "
              "ms, %11.0f updates, %8.3f "
              "updates/clk, %8.4f warp-instr/clk, %9.5f updates/clk/line, "
              "%9.6f warp-instr/clk/line\n",
              KindNames[K], lines, words_hit, lanes, iters, median, updates,
              updates / clocks, warps / clocks, updates / clocks / lines,
              warps / clocks / lines);
  return 0;
}

int main() {
  int sms = 0, clock_khz = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const double ghz = clock_khz / 1e6;
  std::printf("%s, %d SMs, %.3f GHz (clock attribute), L2 %d KiB\n", prop.name,
              sms, ghz, prop.l2CacheSize / 1024);
  unsigned *words, *sink;
  CHECK(cudaMalloc(&words, size_t(MostLines) * LineWords * sizeof(unsigned)));
  CHECK(cudaMalloc(&sink, sizeof(unsigned)));
  CHECK(cudaMemset(words, 0, size_t(MostLines) * LineWords * sizeof(unsigned)));
  timer t;
  CHECK(cudaEventCreate(&t.start));
  CHECK(cudaEventCreate(&t.stop));
  int failed = 0;
  for (int lines : {1, 2, 4, 8, 16, 32, 64, 256, 1024, 4096, MostLines})
    for (auto [words_hit, lanes] :
         {std::pair{1, 1}, {1, 32}, {2, 32}, {8, 32}, {32, 32}}) {
      failed |= run<RedU32>(t, words, sink, sms, ghz, lines, words_hit, lanes);
      failed |= run<AtomU32>(t, words, sink, sms, ghz, lines, words_hit, lanes);
      failed |= run<RedF32>(t, words, sink, sms, ghz, lines, words_hit, lanes);
    }
  return failed;
}
