// transpose: out = in^T for an 8192 x 8192 float matrix through a shared
// tile, the classic coalesced transpose: a block of tile x block_rows
// threads reads a tile x tile square row by row (tile / block_rows rows a
// thread, a loop), writes it to shared memory, and after a barrier writes
// the transposed square row by row. Tuned: the tile, the rows of threads,
// and whether the shared rows are padded by one float (without it the
// column reads of the second half conflict on one bank). Here for the model
// of `metacu report` (docs/report.md, "Kernels the model was not built
// around").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int N = 8192;

@meta metacu::tune_space space =
    metacu::tune_space("transpose")
        .param("tile", {16, 32, 64})
        .param("block_rows", {1, 2, 4, 8, 16, 32})
        .flag("pad")
        .require([](const metacu::json& p) {
          long long t = p["tile"].as_int(), r = p["block_rows"].as_int();
          return r <= t && t * r >= 32 && t * r <= 1024;
        })
        .launch([](const metacu::json& p) {
          long long t = p["tile"].as_int();
          return metacu::tune_launch{{t, p["block_rows"].as_int()}, {N / t, N / t}};
        })
        .problem_size({N})
        .tolerance(0);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ out, const float* __restrict__ in) {
  constexpr int tile = @(c.params["tile"].as_int());
  constexpr int rows = @(c.params["block_rows"].as_int());
  __shared__ float t[tile][tile + @(c.params["pad"].as_bool() ? 1 : 0)];
  int x = blockIdx.x * tile + threadIdx.x;
  int y = blockIdx.y * tile + threadIdx.y;
  for (int j = 0; j < tile; j += rows)
    t[threadIdx.y + j][threadIdx.x] = in[size_t(y + j) * N + x];
  __syncthreads();
  x = blockIdx.y * tile + threadIdx.x;
  y = blockIdx.x * tile + threadIdx.y;
  for (int j = 0; j < tile; j += rows)
    out[size_t(y + j) * N + x] = t[threadIdx.x][threadIdx.y + j];
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct transpose_kernel {
  const char* name;
  void (*kernel)(float*, const float*);
  int tile, rows;
};
const transpose_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["tile"].as_int()), @(c.params["block_rows"].as_int())},
  }
};

struct transpose_problem {
  std::vector<float> in, out;
  float *din = nullptr, *dout = nullptr;

  explicit transpose_problem(const std::vector<long long>&) : in(size_t(N) * N), out(size_t(N) * N) {
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = float(i % 16777216);
    METACU_CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, in.size() * sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dout, 0xff, out.size() * sizeof(float))); } // NaN
  void launch(size_t i) {
    const transpose_kernel& k = kernels[i];
    k.kernel<<<dim3(N / k.tile, N / k.tile), dim3(k.tile, k.rows)>>>(dout, din);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t y = 0; y < N; ++y)
      for (size_t x = 0; x < N; ++x) {
        double d = std::fabs(out[y * N + x] - in[x * N + y]);
        if (!(d <= e))
          e = std::isnan(d) ? INFINITY : d;
      }
    return e;
  }
};
METACU_TUNE_MAIN(transpose_problem)
#endif
