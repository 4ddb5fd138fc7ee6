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
#include <metacu/runtime.h>

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

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ out, const float* __restrict__ in) {
  constexpr int bx = @(c.params["block_x"].as_int()), by = @(c.params["block_y"].as_int());
  constexpr int z_chunk = @(c.params["z_chunk"].as_int());
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

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct stencil3d_kernel {
  const char* name;
  void (*kernel)(float*, const float*);
  int bx, by, z_chunk;
};
const stencil3d_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["block_x"].as_int()), @(c.params["block_y"].as_int()),
     @(c.params["z_chunk"].as_int())},
  }
};

// Inputs in [-1, 1); the outputs of the first and last planes and of every
// 17th (17 is prime to every chunk) checked against the CPU in double.
struct stencil3d_problem {
  std::vector<float> in, out;
  float *din = nullptr, *dout = nullptr;

  explicit stencil3d_problem(const std::vector<long long>&)
      : in(size_t(PX) * PY * (NZ + 2)), out(size_t(NX) * NY * NZ) {
    unsigned state = 2026u;
    for (float& v : in) {
      state = state * 1664525u + 1013904223u;
      v = float(state >> 8) / float(1u << 23) - 1.0f;
    }
    METACU_CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, out.size() * sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dout, 0xff, out.size() * sizeof(float))); } // NaN
  void launch(size_t i) {
    const stencil3d_kernel& k = kernels[i];
    k.kernel<<<dim3(NX / k.bx, NY / k.by, NZ / k.z_chunk), dim3(k.bx, k.by)>>>(dout, din);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(out.data(), dout, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    auto at = [&](int x, int y, int z) { return double(in[(size_t(z) * PY + y) * PX + x]); };
    double e = 0;
    for (int z = 0; z < NZ; ++z)
      if (z == NZ - 1 || z % 17 == 0)
      for (int y = 0; y < NY; ++y)
        for (int x = 0; x < NX; ++x) {
          double r = 0.5 * at(x + 1, y + 1, z + 1) +
                     (1.0 / 12) * (at(x + 1, y + 1, z) + at(x + 1, y + 1, z + 2) + at(x, y + 1, z + 1) +
                                   at(x + 2, y + 1, z + 1) + at(x + 1, y, z + 1) + at(x + 1, y + 2, z + 1));
          double d = std::fabs(out[(size_t(z) * NY + y) * NX + x] - r);
          if (!(d <= e))
            e = std::isnan(d) ? INFINITY : d;
        }
    return e;
  }
};
METACU_TUNE_MAIN(stencil3d_problem)
#endif
