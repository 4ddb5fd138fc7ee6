// block_rate: how many blocks per second the GPU starts and retires when
// blocks do (almost) nothing, per block size: the block-dispatch throughput
// that bounds a kernel of many short blocks (docs/report.md, the model).
// Plain CUDA, built with nvcc alone on the GPU machine:
//   nvcc -O3 -arch=native block_rate.cu -o block_rate && ./block_rate
#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "check.h"

// A store no thread makes (flag is 0), so that the kernel is not empty.
__global__ void nearly_empty(int* out, int flag) {
  if (flag && threadIdx.x == 0)
    out[blockIdx.x] = 1;
}

int main() {
  int clock_khz = 0, sms = 0;
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int grid = 1 << 21;
  int* out = nullptr;
  CHECK(cudaMalloc(&out, grid * sizeof(int)));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::printf("%s, %d SMs, %.3f GHz\n", prop.name, sms, clock_khz / 1e6);
  std::printf("%8s %12s %14s %16s\n", "threads", "ms", "blocks/us", "blocks/clock");
  for (int threads : {32, 64, 128, 256, 512, 1024}) {
    std::vector<float> ms(11);
    for (int w = 0; w < 3; ++w)
      nearly_empty<<<grid, threads>>>(out, 0);
    for (float& t : ms) {
      CHECK(cudaEventRecord(start));
      nearly_empty<<<grid, threads>>>(out, 0);
      CHECK(cudaEventRecord(stop));
      CHECK(cudaEventSynchronize(stop));
      CHECK(cudaEventElapsedTime(&t, start, stop));
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    double median = ms[ms.size() / 2];
    double per_us = grid / (median * 1e3);
    std::printf("%8d %12.4f %14.1f %16.3f\n", threads, median, per_us,
                per_us / (clock_khz / 1e3));
  }
  return 0;
}
