// matmul: Kernel Tuner's tiled matrix multiply (its examples/cuda/matmul.cu,
// C = A * B, 4096 x 4096 floats) ported to metacu tune, for the comparison
// with Kernel Tuner in docs/tune.md (scripts/kt/matmul_kt.py is Kernel
// Tuner's side): the same space, the same restriction, the same kernel.
// Kernel Tuner also leaves out the blocks of more than 1024 threads without
// being asked; metacu does the same by default (block_size_x * block_size_y,
// tune_space::max_threads_per_block) and says so. The candidates whose tiles
// of B need more than 48 KiB of shared memory do not build (ptxas).
//
// The tuning-specific code is the space, the tuned_kernels call, the
// architecture loop around the body, the host table and the harness
// (METACU_TUNE_ARRAYS): docs/tune.md counts its lines against Kernel
// Tuner's script.
#include <vector>

#include <cuda_runtime.h>
#include <metacu/tuned.h>

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
        .metric("GFLOP/s", 2.0 * width * width * width / 1e9, metacu::tune_direction::maximize)
        .tolerance(1e-2);
@meta metacu::tuned_kernels matmul(space, "matmul.tuning.json",
    metacu::params({{"block_size_x", 32}, {"block_size_y", 8}, {"tile_size_x", 4}, {"tile_size_y", 4}}));

@meta for (const metacu::tuned_kernel& k : matmul) {
__global__ void @(k.name)(float* C, const float* A, const float* B) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = k.params(arch);
      @meta int BX = p["block_size_x"].as_int(), BY = p["block_size_y"].as_int();
      @meta int TX = p["tile_size_x"].as_int(), TY = p["tile_size_y"].as_int();
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
}
}

const metacu::tuned_table<void(float*, const float*, const float*)> matmul_kernels = @(matmul.host_table());

// The tuning harness (a tuning build's main): A and B made once, C checked
// on every 128th row against the CPU's in double.
METACU_TUNE_ARRAYS(matmul_kernels.size(), [](metacu::tune::arrays& io) {
  std::vector<float> a = io.uniform<float>(width * width), b = io.uniform<float>(width * width);
  const float *da = io.input(a), *db = io.input(b);
  float* dc = io.output<float>(
      size_t(width) * width, [&](size_t i) { double s = 0; for (int k = 0; k < width; ++k) s += double(a[i / width * width + k]) * b[k * width + i % width]; return s; },
      [](size_t i) { return i / width % 128 == 0; });
  return [=](size_t i) {
    const metacu::tuned_config& p = matmul_kernels.config(i);
    dim3 grid(width / (p["block_size_x"] * p["tile_size_x"]), width / (p["block_size_y"] * p["tile_size_y"]));
    matmul_kernels.kernel(i)<<<grid, dim3(p["block_size_x"], p["block_size_y"])>>>(dc, da, db);
  };
})
