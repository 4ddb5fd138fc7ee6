// loaded_latency: DRAM latency as a streaming kernel sees it, from Little's
// law. Each thread issues K independent loads before using any, so an SM
// holds (resident blocks x threads x K x 4) bytes in flight and, below the
// bandwidth, the GPU reads them at in-flight bytes / latency. Sweeping the
// bytes in flight per SM gives the latency a wave of loads waits under load
// (docs/report.md, the model's steady waves), which is well above the idle
// latency a pointer chase measures. Plain CUDA, built with nvcc alone:
//   nvcc -O3 -arch=native loaded_latency.cu -o loaded_latency && ./loaded_latency
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

constexpr int Threads = 256;

// A tile of Threads x K floats a block, read coalesced, all loads before the
// first add; the sum is stored only if it equals a value it never has, so
// the loads stay and the stores do not count.
template <int K>
__global__ void __launch_bounds__(Threads) read_tiles(const float* __restrict__ in, float* out) {
  size_t base = size_t(blockIdx.x) * Threads * K + threadIdx.x;
  float v[K];
#pragma unroll
  for (int i = 0; i < K; ++i)
    v[i] = in[base + size_t(i) * Threads];
  float s = 0;
#pragma unroll
  for (int i = 0; i < K; ++i)
    s += v[i];
  if (s == -1.0f)
    out[blockIdx.x] = s;
}

template <int K>
int sweep(const float* in, float* out, size_t n, int sms, double clock_ghz, cudaEvent_t start,
          cudaEvent_t stop) {
  int max_blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&max_blocks, read_tiles<K>, Threads, 0));
  CHECK(cudaFuncSetAttribute(read_tiles<K>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             200 * 1024));
  size_t grid = n / (size_t(Threads) * K);
  for (int blocks = 1; blocks <= max_blocks; blocks *= 2) {
    // Dynamic shared memory no thread touches caps the resident blocks.
    int smem = 0, resident = 0;
    for (smem = 0; smem <= 200 * 1024; smem += 1024) {
      CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&resident, read_tiles<K>, Threads,
                                                          smem));
      if (resident <= blocks)
        break;
    }
    if (resident != blocks)
      continue;
    std::vector<float> ms(11);
    for (int w = 0; w < 2; ++w)
      read_tiles<K><<<grid, Threads, smem>>>(in, out);
    for (float& t : ms) {
      CHECK(cudaEventRecord(start));
      read_tiles<K><<<grid, Threads, smem>>>(in, out);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaEventElapsedTime(&t, start, stop));
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    double seconds = ms[ms.size() / 2] * 1e-3;
    double gbps = 4.0 * n / seconds / 1e9;
    double in_flight = double(blocks) * Threads * K * 4; // bytes per SM
    // Little's law over the whole GPU: latency = bytes in flight / rate.
    double latency_ns = in_flight * sms / (gbps * 1e9) * 1e9;
    std::printf("%4d %8d %14.0f %10.1f %12.0f %12.0f\n", K, blocks, in_flight, gbps, latency_ns,
                latency_ns * clock_ghz);
  }
  return 0;
}

int main() {
  int clock_khz = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const size_t n = size_t(1) << 28; // 1 GiB: far beyond L2
  float *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMemset(in, 0, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n / Threads * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  double ghz = clock_khz / 1e6;
  std::printf("%s, %d SMs, %.3f GHz\n", prop.name, sms, ghz);
  std::printf("%4s %8s %14s %10s %12s %12s\n", "K", "blocks", "bytes/SM", "GB/s", "latency ns",
              "cycles");
  if (sweep<1>(in, out, n, sms, ghz, start, stop) || sweep<2>(in, out, n, sms, ghz, start, stop) ||
      sweep<4>(in, out, n, sms, ghz, start, stop) || sweep<8>(in, out, n, sms, ghz, start, stop) ||
      sweep<16>(in, out, n, sms, ghz, start, stop))
    return 1;
  return 0;
}
