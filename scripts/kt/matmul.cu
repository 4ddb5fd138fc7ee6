// matmul: Kernel Tuner's tiled matrix multiply (its examples/cuda/matmul.cu,
// C = A * B, 4096 x 4096 floats) ported to metacu tune, for the comparison
// with Kernel Tuner in docs/tune.md (scripts/kt/matmul_kt.py is Kernel
// Tuner's side): the same space, the same restriction, the same kernel.
// Kernel Tuner also leaves out the blocks of more than 1024 threads without
// being asked; metacu does the same by default (block_size_x * block_size_y,
// tune_space::max_threads_per_block) and says so. The candidates whose tiles
// of B need more than 48 KiB of shared memory do not build (ptxas).
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int width = 4096;

@meta metacu::tune_space space =
    metacu::tune_space("matmul")
        .param("block_size_x", {16, 32, 64})
        .param("block_size_y", {1, 2, 4, 8, 16, 32})
        .param("tile_size_x", {1, 2, 4, 8})
        .param("tile_size_y", {1, 2, 4, 8})
        .require([](const metacu::json& p) {
          return p["block_size_x"].as_int() == p["block_size_y"].as_int() * p["tile_size_y"].as_int();
        })
        .problem_size({width})
        .metric("GFLOP/s", 2.0 * width * width * width / 1e9, metacu::tune_direction::maximize)
        .tolerance(1e-2);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* C, const float* A, const float* B) {
  @meta int BX = c.params["block_size_x"].as_int(), BY = c.params["block_size_y"].as_int();
  @meta int TX = c.params["tile_size_x"].as_int(), TY = c.params["tile_size_y"].as_int();
  __shared__ float sA[BY * TY][BX];
  __shared__ float sB[BY * TY][BX * TX];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * BX * TX + tx;
  const int y = blockIdx.y * BY * TY + ty;
  float sum[TY][TX] = {};
  for (int k = 0; k < width; k += BX) {
    __syncthreads();
#pragma unroll
    for (int i = 0; i < TY; i++) {
      sA[ty + BY * i][tx] = A[(y + i * BY) * width + k + tx];
#pragma unroll
      for (int j = 0; j < TX; j++)
        sB[ty + BY * i][tx + j * BX] = B[(k + ty + BY * i) * width + x + j * BX];
    }
    __syncthreads();
#pragma unroll
    for (int kb = 0; kb < BX; kb++)
#pragma unroll
      for (int i = 0; i < TY; i++)
#pragma unroll
        for (int j = 0; j < TX; j++)
          sum[i][j] += sA[ty + BY * i][kb] * sB[kb][tx + j * BX];
  }
#pragma unroll
  for (int i = 0; i < TY; i++)
#pragma unroll
    for (int j = 0; j < TX; j++)
      C[(y + BY * i) * width + x + j * BX] = sum[i][j];
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>
struct matmul_kernel {
  void (*kernel)(float*, const float*, const float*);
  int bx, by, tx, ty;
};
const matmul_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {@(c.name), c.params["block_size_x"].as_int(), c.params["block_size_y"].as_int(),
     c.params["tile_size_x"].as_int(), c.params["tile_size_y"].as_int()},
  }
};

// A and B made once, C checked on every 128th row against the CPU's in
// double.
struct matmul_problem {
  int n;
  std::vector<float> a, b, c;
  std::vector<double> ref;
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  explicit matmul_problem(const std::vector<long long>&) : n(width), a(size_t(n) * n), b(a.size()), c(a.size()) {
    unsigned state = 2024u;
    auto uniform = [&] {
      state = state * 1664525u + 1013904223u;
      return float(state >> 8) / float(1u << 23) - 1.0f;
    };
    for (float& v : a)
      v = uniform();
    for (float& v : b)
      v = uniform();
    for (int y = 0; y < n; y += 128)
      for (int x = 0; x < n; ++x) {
        double s = 0;
        for (int k = 0; k < n; ++k)
          s += double(a[size_t(y) * n + k]) * b[size_t(k) * n + x];
        ref.push_back(s);
      }
    for (float** p : {&da, &db, &dc})
      METACU_CHECK(cudaMalloc(p, a.size() * sizeof(float)));
    METACU_CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dc, 0xff, c.size() * sizeof(float))); } // NaN
  void launch(size_t i) {
    const matmul_kernel& k = kernels[i];
    k.kernel<<<dim3(n / (k.bx * k.tx), n / (k.by * k.ty)), dim3(k.bx, k.by)>>>(dc, da, db);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    size_t r = 0;
    for (int y = 0; y < n; y += 128)
      for (int x = 0; x < n; ++x) {
        double d = std::fabs(c[size_t(y) * n + x] - ref[r++]);
        if (!(d <= e))
          e = std::isnan(d) ? INFINITY : d;
      }
    return e;
  }
};
METACU_TUNE_MAIN(matmul_problem)
#endif
