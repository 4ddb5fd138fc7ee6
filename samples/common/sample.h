// Helpers the samples share: timing with CUDA events and a command line.
// Plain host code; no metacu constructs (the samples' .cu files hold those).
#ifndef METACU_SAMPLES_SAMPLE_H
#define METACU_SAMPLES_SAMPLE_H

#include <algorithm>
#include <cuda_runtime.h>
#include <metacu/runtime.h>
#include <vector>

// Median time in milliseconds of `reps` runs of launch(), after `warmup`
// untimed ones. Each run is timed with its own pair of events.
template <class F> float median_ms(F&& launch, int warmup = 3, int reps = 20) {
  for (int i = 0; i < warmup; ++i)
    launch();
  METACU_CHECK(cudaGetLastError());
  cudaEvent_t start, stop;
  METACU_CHECK(cudaEventCreate(&start));
  METACU_CHECK(cudaEventCreate(&stop));
  std::vector<float> ms(reps);
  for (float& t : ms) {
    METACU_CHECK(cudaEventRecord(start));
    launch();
    METACU_CHECK(cudaEventRecord(stop));
    METACU_CHECK(cudaEventSynchronize(stop));
    METACU_CHECK(cudaEventElapsedTime(&t, start, stop));
  }
  METACU_CHECK(cudaGetLastError());
  METACU_CHECK(cudaEventDestroy(start));
  METACU_CHECK(cudaEventDestroy(stop));
  std::nth_element(ms.begin(), ms.begin() + reps / 2, ms.end());
  return ms[reps / 2];
}

// The device's compute capability as 10 * major + minor (90 on an H100).
inline int device_compute_capability() {
  int device = 0, major = 0, minor = 0;
  METACU_CHECK(cudaGetDevice(&device));
  METACU_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  METACU_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return 10 * major + minor;
}

#endif // METACU_SAMPLES_SAMPLE_H
