// stencil3d: one Jacobi step of the 7-point Laplacian on a 512 x 512 x 256
// float grid with a ghost layer, each thread marching down z: a 2D block
// covers block_x x block_y columns of a chunk of z_chunk planes (a loop of
// z_chunk steps), keeping the point below, the point and the point above in
// registers and reading the four in-plane neighbours from global memory
// (L1 and L2 serve the neighbouring columns' rereads). Tuned: the block's
// shape and the planes a thread walks. Here for the model of `metacu
// report` (docs/report.md, "Kernels the model was not built around").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/tuned.h>

constexpr int NX = 512, NY = 512, NZ = 256;
// The input's extents, ghost layer included.
constexpr int PX = NX + 2, PY = NY + 2;

@meta metacu::tune_space space =
    metacu::tune_space("stencil3d")
        .param("block_x", {32, 64, 128, 256})
        .param("block_y", {1, 2, 4, 8, 16})
        .param("z_chunk", {1, 4, 16, 64, 256})
        .require([](const metacu::json& p) { return p["block_x"].as_int() * p["block_y"].as_int() <= 1024; })
        .launch([](const metacu::json& p) {
          long long bx = p["block_x"].as_int(), by = p["block_y"].as_int();
          return metacu::tune_launch{{bx, by}, {NX / bx, NY / by, NZ / p["z_chunk"].as_int()}};
        })
        .problem_size({NX, NY, NZ})
        .tolerance(1e-5);

// Read through tuned_kernels, so that `metacu tune`'s harness is the
// file's host code without the candidates, compiled once (docs/tune.md).
@meta metacu::tuned_kernels stencil3d(space, "stencil3d.tuning.json",
    metacu::params({{"block_x", 64}, {"block_y", 16}, {"z_chunk", 16}}));

@meta for (const metacu::tuned_kernel& k : stencil3d) {
__global__ void @(k.name)(float* __restrict__ out, const float* __restrict__ in) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& c = k.params(arch);
      constexpr int bx = @(c["block_x"].as_int()), by = @(c["block_y"].as_int());
      constexpr int z_chunk = @(c["z_chunk"].as_int());
      const int x = blockIdx.x * bx + threadIdx.x, y = blockIdx.y * by + threadIdx.y;
      const int z0 = blockIdx.z * z_chunk;
      // The input point of output (x, y, z) is (x + 1, y + 1, z + 1).
      const float* p = in + (size_t(z0 + 1) * PY + y + 1) * PX + x + 1;
      float* q = out + (size_t(z0) * NY + y) * NX + x;
      float below = p[-PX * PY], centre = p[0];
      for (int z = 0; z < z_chunk; ++z) {
        float above = p[PX * PY];
        *q = 0.5f * centre + (1.0f / 12) * (below + above + p[-1] + p[1] + p[-PX] + p[PX]);
        below = centre;
        centre = above;
        p += PX * PY;
        q += NX * NY;
      }
    }
  }
}
}

const metacu::tuned_table<void(float*, const float*)> stencil3d_kernels = @(stencil3d.host_table());

// Inputs in [-1, 1); the outputs of the first and last planes and of every
// 17th (17 is prime to every chunk) checked against the CPU in double.
METACU_TUNE_ARRAYS(stencil3d_kernels.size(), [](metacu::tune::arrays& io) {
  std::vector<float> in = io.uniform<float>(size_t(PX) * PY * (NZ + 2));
  const float* din = io.input(in);
  auto at = [&in](size_t x, size_t y, size_t z) { return double(in[(z * PY + y) * PX + x]); };
  float* dout = io.output<float>(
      size_t(NX) * NY * NZ,
      [&](size_t i) {
        size_t x = i % NX, y = i / NX % NY, z = i / (size_t(NX) * NY);
        return 0.5 * at(x + 1, y + 1, z + 1) +
               (1.0 / 12) * (at(x + 1, y + 1, z) + at(x + 1, y + 1, z + 2) + at(x, y + 1, z + 1) +
                             at(x + 2, y + 1, z + 1) + at(x + 1, y, z + 1) + at(x + 1, y + 2, z + 1));
      },
      [](size_t i) { size_t z = i / (size_t(NX) * NY); return z == NZ - 1 || z % 17 == 0; });
  return [=](size_t i) {
    const metacu::tuned_config& p = stencil3d_kernels.config(i);
    stencil3d_kernels.kernel(i)<<<dim3(NX / p["block_x"], NY / p["block_y"], NZ / p["z_chunk"]),
                                  dim3(p["block_x"], p["block_y"])>>>(dout, din);
  };
})
