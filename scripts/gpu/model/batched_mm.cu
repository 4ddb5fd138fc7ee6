// batched_mm: C_b = A_b B_b for 16,384 independent 32 x 32 float matrices
// (a batched small-matrix product, as in block-sparse or many-small-GEMM
// workloads). A block of threads_per_matrix x matrices threads takes
// `matrices` products, each thread M*M / threads_per_matrix outputs of its
// matrix; the operands are read from global memory, or staged in shared
// memory first; the inner product's loop is unrolled by `unroll`. Held out
// from the model of `metacu report`: measured on the GPU before the model
// was run on it once (docs/report.md, "Kernels the model was not built
// around").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int M = 32;
constexpr int BATCH = 16384;

@meta metacu::tune_space space =
    metacu::tune_space("batched_mm")
        .param("threads_per_matrix", {32, 64, 128, 256, 512, 1024})
        .param("matrices", {1, 2, 4, 8, 16})
        .param("unroll", {1, 4, 32})
        .flag("stage")
        .require([](const metacu::json& p) {
          long long t = p["threads_per_matrix"].as_int(), m = p["matrices"].as_int();
          return t * m <= 1024 && (!p["stage"].as_bool() || m <= 4);
        })
        .launch([](const metacu::json& p) {
          long long m = p["matrices"].as_int();
          return metacu::tune_launch{{p["threads_per_matrix"].as_int(), m}, {BATCH / m}};
        })
        .problem_size({BATCH})
        .tolerance(1e-3);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ C, const float* __restrict__ A,
                          const float* __restrict__ B) {
  constexpr int tpm = @(c.params["threads_per_matrix"].as_int());
  constexpr int mats = @(c.params["matrices"].as_int());
  constexpr int per = M * M / tpm;
  constexpr int unroll = @(c.params["unroll"].as_int());
  size_t m = size_t(blockIdx.x) * mats + threadIdx.y;
  const float* a = A + m * M * M;
  const float* b = B + m * M * M;
  @meta if (c.params["stage"].as_bool()) {
    __shared__ float sa[mats][M * M], sb[mats][M * M];
    for (int i = threadIdx.x; i < M * M; i += tpm) {
      sa[threadIdx.y][i] = a[i];
      sb[threadIdx.y][i] = b[i];
    }
    __syncthreads();
    a = sa[threadIdx.y];
    b = sb[threadIdx.y];
  }
  for (int k = 0; k < per; ++k) {
    int idx = threadIdx.x + k * tpm;
    int r = idx / M, col = idx % M;
    float acc = 0;
#pragma unroll (unroll)
    for (int j = 0; j < M; ++j)
      acc += a[r * M + j] * b[j * M + col];
    C[m * M * M + idx] = acc;
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct batched_kernel {
  const char* name;
  void (*kernel)(float*, const float*, const float*);
  int tpm, mats;
};
const batched_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["threads_per_matrix"].as_int()), @(c.params["matrices"].as_int())},
  }
};

struct batched_problem {
  static constexpr size_t elems = size_t(BATCH) * M * M;
  std::vector<float> a, b, c, ref;
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  // Every 64th product is checked on the CPU.
  static constexpr int checked = 64;

  explicit batched_problem(const std::vector<long long>&) : a(elems), b(elems), c(elems), ref(elems) {
    for (size_t i = 0; i < elems; ++i) {
      a[i] = float(int(i * 7 % 13) - 6) / 8;
      b[i] = float(int(i * 5 % 11) - 5) / 4;
    }
    for (size_t m = 0; m < BATCH; m += checked)
      for (int r = 0; r < M; ++r)
        for (int col = 0; col < M; ++col) {
          double s = 0;
          for (int j = 0; j < M; ++j)
            s += double(a[m * M * M + r * M + j]) * b[m * M * M + j * M + col];
          ref[m * M * M + r * M + col] = float(s);
        }
    METACU_CHECK(cudaMalloc(&da, elems * sizeof(float)));
    METACU_CHECK(cudaMalloc(&db, elems * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dc, elems * sizeof(float)));
    METACU_CHECK(cudaMemcpy(da, a.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(db, b.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dc, 0xff, elems * sizeof(float))); } // NaN
  void launch(size_t i) {
    const batched_kernel& k = kernels[i];
    k.kernel<<<dim3(BATCH / k.mats), dim3(k.tpm, k.mats)>>>(dc, da, db);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(c.data(), dc, elems * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t m = 0; m < BATCH; m += checked)
      for (size_t i = m * M * M; i < (m + 1) * M * M; ++i) {
        double d = std::fabs(c[i] - ref[i]);
        if (!(d <= e))
          e = std::isnan(d) ? INFINITY : d;
      }
    return e;
  }
};
METACU_TUNE_MAIN(batched_problem)
#endif
