// What pushes a line out of L1: the lines brought in, or the lines touched
// (docs/report.md, "A reread's distance": the model keeps a reread's line
// with odds exp(-bytes brought in meanwhile / capacity)). One wave of
// one-warp blocks, n an SM (grid n x SMs), each on its own data:
//   walks: a block walks its chunk twice (a softmax's row read again): the
//     SM's n chunks are both what it touches and what it brings in between
//     a line's load and its reread;
//   hot: a block walks a hot chunk 32 times, and between two walks a cold
//     segment it never reads again (batched_mm's B read again every outer
//     pass, beside A's new rows): it touches n (hot + cold) between two
//     reads of a hot line, but brings in only n cold (and what it misses).
// Where n hot chunks exceed L1, a cache that evicts what was touched least
// recently (LRU) misses every reread of the hot chunk (a cycle longer than
// the cache), one that evicts at random per line brought in keeps about
// exp(-n (cold + missed) / capacity) of them. Loads are float4 through the
// read-only path (ld.global.nc, `const __restrict__`), as softmax's. Prints
// the median of 5 launches per configuration; with 'once', one launch each
// (for Nsight Compute's L1 hit counters).
//   nvcc -O3 -arch=sm_90 -std=c++17 l1_reuse.cu -o l1_reuse
//   ./l1_reuse; ncu --metrics ... ./l1_reuse once
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

// A warp walks Bytes at X, 512 bytes a load instruction.
__device__ inline float walk(const float4* __restrict__ X, int Bytes) {
  float S = 0;
  for (int I = threadIdx.x; I < Bytes / 16; I += 32) {
    float4 V = X[I];
    S += V.x + V.y + V.z + V.w;
  }
  return S;
}

__global__ void walks(float* Out, const float4* __restrict__ In, int Chunk) {
  const float4* X = In + size_t(blockIdx.x) * (Chunk / 16);
  float S = walk(X, Chunk);
  S += walk(X, Chunk);
  Out[blockIdx.x * 32 + threadIdx.x] = S;
}

// Zero is 0: the hot chunk's address reads it each round, so that the
// compiler cannot take the hot walk as loop-invariant and load it once.
__global__ void hot(float* Out, const float4* __restrict__ In, int Hot,
                    int Cold, int Zero) {
  constexpr int Rounds = 32;
  size_t Own = size_t(Hot) + size_t(Cold) * Rounds;
  const float4* H = In + size_t(blockIdx.x) * (Own / 16);
  const float4* C = H + Hot / 16;
  float S = 0;
  for (int R = 0; R < Rounds; ++R) {
    S += walk(H + R * Zero, Hot);
    S += walk(C + size_t(R) * (Cold / 16), Cold);
  }
  Out[blockIdx.x * 32 + threadIdx.x] = S;
}

struct Config {
  bool Hot;
  int PerSM, A, B; // walks: chunk; hot: hot chunk, cold segment
};

int main(int Argc, char** Argv) {
  bool Once = Argc > 1 && !std::strcmp(Argv[1], "once");
  cudaDeviceProp P;
  CHECK(cudaGetDeviceProperties(&P, 0));
  std::printf("# %s, %d SMs\n", P.name, P.multiProcessorCount);
  const Config Configs[] = {
      {false, 2, 8192, 0},    {false, 4, 8192, 0},   {false, 8, 8192, 0},
      {false, 16, 8192, 0},   {false, 32, 8192, 0},  {false, 16, 16384, 0},
      {false, 32, 16384, 0},  {false, 32, 4096, 0},  {true, 32, 4096, 256},
      {true, 32, 8192, 256},  {true, 32, 8192, 2048}, {true, 16, 8192, 256},
      {true, 16, 16384, 256}, {true, 8, 16384, 1024},
  };
  size_t MaxBytes = 0;
  for (const Config& C : Configs)
    MaxBytes = std::max(MaxBytes, size_t(C.PerSM) * P.multiProcessorCount *
                                      size_t(C.Hot ? C.A + 32 * C.B : C.A));
  float4* In;
  float* Out;
  CHECK(cudaMalloc(&In, MaxBytes));
  CHECK(cudaMemset(In, 0, MaxBytes));
  CHECK(cudaMalloc(&Out, size_t(32) * 32 * P.multiProcessorCount * 4));
  cudaEvent_t E0, E1;
  CHECK(cudaEventCreate(&E0));
  CHECK(cudaEventCreate(&E1));
  for (const Config& C : Configs) {
    int Grid = C.PerSM * P.multiProcessorCount;
    auto Launch = [&] {
      if (C.Hot)
        hot<<<Grid, 32>>>(Out, In, C.A, C.B, 0);
      else
        walks<<<Grid, 32>>>(Out, In, C.A);
    };
    std::vector<float> Us;
    for (int I = 0; I < (Once ? 1 : 6); ++I) {
      CHECK(cudaEventRecord(E0));
      Launch();
      CHECK(cudaEventRecord(E1));
      CHECK(cudaEventSynchronize(E1));
      float Ms;
      CHECK(cudaEventElapsedTime(&Ms, E0, E1));
      if (I > 0 || Once)
        Us.push_back(Ms * 1000);
    }
    std::sort(Us.begin(), Us.end());
    if (C.Hot)
      std::printf("hot   %2d blocks/SM, hot %5d B, cold %4d B a round: hot "
                  "%6d KiB an SM, cold %4d KiB a round: %8.1f us\n",
                  C.PerSM, C.A, C.B, C.PerSM * C.A / 1024,
                  C.PerSM * C.B / 1024, Us[Us.size() / 2]);
    else
      std::printf("walks %2d blocks/SM, chunk %5d B: %6d KiB an SM: %8.1f "
                  "us\n",
                  C.PerSM, C.A, C.PerSM * C.A / 1024, Us[Us.size() / 2]);
  }
  CHECK(cudaGetLastError());
  return 0;
}
