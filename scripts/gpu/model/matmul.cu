// matmul: Kernel Tuner's tiled matrix multiplication example
// (examples/cuda/matmul.cu), C = A B for 4096 x 4096 floats, ported to a
// metacu tune space: each candidate's parameters are compile-time constants
// of its kernel, and the k loop stays a loop (WIDTH / block_size_x steps of
// one barrier-separated stage of a block_size_x-wide panel of A and B into
// shared memory, then block_size_x register-tiled FMAs steps). It is here
// for the model of `metacu report` (docs/report.md, "Kernels the model was
// not built around"): the space differs in tile shape, so shared-memory
// traffic per FMA, bank conflicts of the tile reads, registers, occupancy
// and the barrier per k-step decide the order.
#include <cmath>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int WIDTH = 4096;

// Kernel Tuner's space and restriction (block_size_x == block_size_y *
// tile_size_y), less what does not fit 48 KiB of static shared memory.
@meta metacu::tune_space space =
    metacu::tune_space("matmul")
        .param("block_size_x", {16, 32, 64})
        .param("block_size_y", {1, 2, 4, 8, 16, 32})
        .param("tile_size_x", {1, 2, 4, 8})
        .param("tile_size_y", {1, 2, 4, 8})
        .require([](const metacu::json& p) {
          return p["block_size_x"].as_int() == p["block_size_y"].as_int() * p["tile_size_y"].as_int();
        })
        .require([](const metacu::json& p) {
          long long bx = p["block_size_x"].as_int();
          return bx * bx * (1 + p["tile_size_x"].as_int()) * 4 <= 48 * 1024;
        })
        .launch([](const metacu::json& p) {
          long long bx = p["block_size_x"].as_int(), by = p["block_size_y"].as_int();
          return metacu::tune_launch{
              {bx, by}, {WIDTH / (bx * p["tile_size_x"].as_int()), WIDTH / (by * p["tile_size_y"].as_int())}};
        })
        .problem_size({WIDTH})
        .tolerance(1e-2);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* C, const float* A, const float* B) {
  constexpr int block_size_x = @(c.params["block_size_x"].as_int());
  constexpr int block_size_y = @(c.params["block_size_y"].as_int());
  constexpr int tile_size_x = @(c.params["tile_size_x"].as_int());
  constexpr int tile_size_y = @(c.params["tile_size_y"].as_int());
  __shared__ float sA[block_size_y * tile_size_y][block_size_x];
  __shared__ float sB[block_size_y * tile_size_y][block_size_x * tile_size_x];

  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int x = blockIdx.x * block_size_x * tile_size_x + threadIdx.x;
  int y = blockIdx.y * block_size_y * tile_size_y + threadIdx.y;

  float sum[tile_size_y][tile_size_x];
#pragma unroll
  for (int i = 0; i < tile_size_y; i++)
#pragma unroll
    for (int j = 0; j < tile_size_x; j++)
      sum[i][j] = 0.0f;

  for (int k = 0; k < WIDTH; k += block_size_x) {
    __syncthreads();
#pragma unroll
    for (int i = 0; i < tile_size_y; i++) {
      sA[ty + block_size_y * i][tx] = A[y * WIDTH + block_size_y * i * WIDTH + k + tx];
#pragma unroll
      for (int j = 0; j < tile_size_x; j++)
        sB[ty + block_size_y * i][tx + j * block_size_x] =
            B[(k + ty + block_size_y * i) * WIDTH + x + j * block_size_x];
    }
    __syncthreads();
#pragma unroll
    for (int kb = 0; kb < block_size_x; kb++)
#pragma unroll
      for (int i = 0; i < tile_size_y; i++)
#pragma unroll
        for (int j = 0; j < tile_size_x; j++)
          sum[i][j] += sA[ty + block_size_y * i][kb] * sB[kb][tx + j * block_size_x];
  }

#pragma unroll
  for (int i = 0; i < tile_size_y; i++)
#pragma unroll
    for (int j = 0; j < tile_size_x; j++)
      C[y * WIDTH + x + block_size_x * j + WIDTH * block_size_y * i] = sum[i][j];
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct matmul_kernel {
  const char* name;
  void (*kernel)(float*, const float*, const float*);
  int bx, by, tx, ty;
};
const matmul_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["block_size_x"].as_int()), @(c.params["block_size_y"].as_int()),
     @(c.params["tile_size_x"].as_int()), @(c.params["tile_size_y"].as_int())},
  }
};

// A and B in [-1, 1); C checked at 512 places against the CPU in double.
struct matmul_problem {
  std::vector<float> a, b, c;
  std::vector<int> rows, cols;
  std::vector<double> ref;
  float *dA = nullptr, *dB = nullptr, *dC = nullptr;

  explicit matmul_problem(const std::vector<long long>&)
      : a(size_t(WIDTH) * WIDTH), b(size_t(WIDTH) * WIDTH), c(size_t(WIDTH) * WIDTH) {
    unsigned state = 2026u;
    auto next = [&] {
      state = state * 1664525u + 1013904223u;
      return float(state >> 8) / float(1u << 23) - 1.0f;
    };
    for (float& v : a)
      v = next();
    for (float& v : b)
      v = next();
    for (int s = 0; s < 512; ++s) {
      state = state * 1664525u + 1013904223u;
      rows.push_back(int(state >> 8) % WIDTH);
      state = state * 1664525u + 1013904223u;
      cols.push_back(int(state >> 8) % WIDTH);
      double sum = 0;
      for (int k = 0; k < WIDTH; ++k)
        sum += double(a[size_t(rows.back()) * WIDTH + k]) * b[size_t(k) * WIDTH + cols.back()];
      ref.push_back(sum);
    }
    size_t bytes = a.size() * sizeof(float);
    METACU_CHECK(cudaMalloc(&dA, bytes));
    METACU_CHECK(cudaMalloc(&dB, bytes));
    METACU_CHECK(cudaMalloc(&dC, bytes));
    METACU_CHECK(cudaMemcpy(dA, a.data(), bytes, cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(dB, b.data(), bytes, cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dC, 0xff, c.size() * sizeof(float))); } // NaN
  void launch(size_t i) {
    const matmul_kernel& k = kernels[i];
    dim3 block(k.bx, k.by), grid(WIDTH / (k.bx * k.tx), WIDTH / (k.by * k.ty));
    k.kernel<<<grid, block>>>(dC, dA, dB);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(c.data(), dC, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t s = 0; s < ref.size(); ++s) {
      double d = std::fabs(c[size_t(rows[s]) * WIDTH + cols[s]] - ref[s]);
      e = std::isnan(d) ? INFINITY : std::fmax(e, d);
    }
    return e;
  }
};
METACU_TUNE_MAIN(matmul_problem)
#endif
