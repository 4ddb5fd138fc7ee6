// median_us(launch): the median of 20 timed calls of `launch` (a callable
// that launches one kernel on the default stream), in microseconds, each
// timed with CUDA events; negative when a CUDA call failed (printed to
// stderr, as CHECK does). Shared by the self-contained GPU microbenchmarks
// of this folder, each built with nvcc alone here.
#ifndef METACU_SCRIPTS_GPU_MEDIAN_TIME_H
#define METACU_SCRIPTS_GPU_MEDIAN_TIME_H

#include <algorithm>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

template <class Launch> double median_us(Launch launch, int runs = 20) {
  auto ok = [](cudaError_t e, const char* what) {
    if (e != cudaSuccess)
      std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    return e == cudaSuccess;
  };
  cudaEvent_t start, stop;
  if (!ok(cudaEventCreate(&start), "cudaEventCreate") || !ok(cudaEventCreate(&stop), "cudaEventCreate"))
    return -1;
  std::vector<float> t;
  for (int i = 0; i < runs; ++i) {
    float ms = 0;
    if (!ok(cudaEventRecord(start), "cudaEventRecord"))
      return -1;
    launch();
    if (!ok(cudaEventRecord(stop), "cudaEventRecord") || !ok(cudaEventSynchronize(stop), "cudaEventSynchronize") ||
        !ok(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime"))
      return -1;
    t.push_back(ms * 1000);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  if (!ok(cudaGetLastError(), "the timed launches"))
    return -1;
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

#endif
