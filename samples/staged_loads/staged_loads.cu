// staged_loads: a 1D stencil that stages its input tile, halo included, in
// shared memory, written twice.
//
// A block of nt threads computes nt * vt outputs and needs nt * vt + 2 * radius
// inputs: vt + 1 loads per thread, of which only the last can fall outside
// the tile (threadIdx.x + vt * nt < tile). metacu knows at generation time
// which loads those are and emits a bounds check for that one alone
// (`@meta if`); the first vt loads are straight-line code.
//
// The template version with `#pragma unroll` is the usual way to write it
// today. nvcc unrolls it, but cannot prove threadIdx.x < NT, so it keeps a
// bounds check on every load: a compare and a branch around each ld.global
// in the PTX (nvcc 13), which ptxas turns into a compare and a predicated
// load each in the SASS. Both kernels compute the same result, checked
// against the CPU, and are timed in the same run; the stencil is
// memory-bound, so the extra compares cost no measurable time here.
//
//   staged_loads [n]    (default 2^26 outputs; rounded up to whole tiles)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

#include "../common/sample.h"

constexpr int radius = 8;
@meta int nt = 256;
@meta int vt = 4;
@meta int tile = nt * vt + 2 * radius;
@meta int loads = (tile + nt - 1) / nt;

// in has radius values of padding on both sides of the n outputs' inputs.
__global__ void stencil_meta(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float staged[tile];
  const float* src = in + size_t(blockIdx.x) * @(nt * vt);
  @meta for (int i = 0; i < loads; ++i) {
    @meta if ((i + 1) * nt <= tile) {
      staged[threadIdx.x + i * nt] = src[threadIdx.x + i * nt];
    } else {
      if (threadIdx.x + i * nt < tile)
        staged[threadIdx.x + i * nt] = src[threadIdx.x + i * nt];
    }
  }
  __syncthreads();
  @meta for (int i = 0; i < vt; ++i) {
    float sum = 0.0f;
    @meta for (int k = 0; k <= 2 * radius; ++k)
      sum += staged[threadIdx.x + i * nt + k];
    out[size_t(blockIdx.x) * @(nt * vt) + threadIdx.x + i * nt] = sum * @(1.0f / (2 * radius + 1));
  }
}

template <int NT, int VT>
__global__ void stencil_template(const float* __restrict__ in, float* __restrict__ out) {
  constexpr int tile_size = NT * VT + 2 * radius;
  __shared__ float staged[tile_size];
  const float* src = in + size_t(blockIdx.x) * (NT * VT);
#pragma unroll
  for (int i = 0; i < (tile_size + NT - 1) / NT; ++i)
    if (threadIdx.x + i * NT < tile_size)
      staged[threadIdx.x + i * NT] = src[threadIdx.x + i * NT];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < VT; ++i) {
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k <= 2 * radius; ++k)
      sum += staged[threadIdx.x + i * NT + k];
    out[size_t(blockIdx.x) * (NT * VT) + threadIdx.x + i * NT] = sum * (1.0f / (2 * radius + 1));
  }
}

template __global__ void stencil_template<nt, vt>(const float* __restrict__, float* __restrict__);

int main(int argc, char** argv) {
  const size_t per_block = nt * vt;
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t(1) << 26);
  size_t blocks = (n + per_block - 1) / per_block;
  n = blocks * per_block;

  std::vector<float> in(n + 2 * radius);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float((i * 7919) % 1024) / 1024.0f - 0.5f;
  std::vector<float> ref(n);
  for (size_t i = 0; i < n; ++i) {
    float sum = 0.0f;
    for (int k = 0; k <= 2 * radius; ++k)
      sum += in[i + k];
    ref[i] = sum * (1.0f / (2 * radius + 1));
  }

  float *din = nullptr, *dout = nullptr;
  METACU_CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dout, n * sizeof(float)));
  METACU_CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));

  struct variant {
    const char* name;
    void (*kernel)(const float*, float*);
  };
  const variant variants[] = {
      {"metacu (@meta for + @meta if)", stencil_meta},
      {"template + #pragma unroll", stencil_template<nt, vt>},
  };
  int failures = 0;
  for (const variant& v : variants) {
    METACU_CHECK(cudaMemset(dout, 0xff, n * sizeof(float))); // NaN: unwritten values fail
    v.kernel<<<unsigned(blocks), nt>>>(din, dout);
    METACU_CHECK(cudaGetLastError());
    std::vector<float> out(n);
    METACU_CHECK(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
      if (!(std::fabs(out[i] - ref[i]) <= 1e-6f))
        ++bad;
    failures += bad != 0;
    float ms = median_ms([&] { v.kernel<<<unsigned(blocks), nt>>>(din, dout); });
    double gbs = 2.0 * n * sizeof(float) / (ms * 1e6);
    std::printf("staged_loads: %-30s n=%zu: %s, %.3f ms, %.1f GB/s\n", v.name, n,
                bad ? "MISMATCH" : "ok", ms, gbs);
    std::printf("row|staged_loads|%s|%.0f GB/s|%s\n", v.name, gbs,
                bad ? "MISMATCH" : "matches CPU");
  }
  METACU_CHECK(cudaFree(din));
  METACU_CHECK(cudaFree(dout));
  return failures ? 1 : 0;
}
