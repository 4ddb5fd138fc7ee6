// maxpool: a convolutional network's stem pool, 3 x 3 windows at stride 2
// with one pixel of padding, over 32 images x 64 channels (NCHW, 2,048
// planes) of 112 x 112 floats, each plane to 56 x 56. A block of block_x x
// block_y threads covers a tile of one plane (blockIdx.z); each thread takes
// out_x x out_y neighbouring outputs and reads their (2 out_y + 1) x
// (2 out_x + 1) inputs once, the rows and columns its windows share kept in
// registers (more outputs a thread: fewer reads of the overlap, fewer
// threads, wider strides between a warp's lanes). Blocks wider than a
// plane's 56 outputs leave threads idle. Held out from the model of `metacu
// report`: its predictions were committed before it was measured on the GPU
// (docs/report.md, "Held out and measured first: maxpool and spmv").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int PLANES = 32 * 64;
constexpr int H = 112, W = 112;
constexpr int HO = H / 2, WO = W / 2;

@meta metacu::tune_space space =
    metacu::tune_space("maxpool")
        .param("block_x", {8, 16, 32, 64})
        .param("block_y", {1, 2, 4, 8, 16})
        .param("out_x", {1, 2, 4})
        .param("out_y", {1, 2, 4})
        .require([](const metacu::json& p) {
          long long t = p["block_x"].as_int() * p["block_y"].as_int();
          return t >= 32 && t <= 1024;
        })
        .launch([](const metacu::json& p) {
          long long tx = p["block_x"].as_int() * p["out_x"].as_int();
          long long ty = p["block_y"].as_int() * p["out_y"].as_int();
          return metacu::tune_launch{{p["block_x"].as_int(), p["block_y"].as_int()},
                                     {(WO + tx - 1) / tx, (HO + ty - 1) / ty, PLANES}};
        })
        .problem_size({PLANES})
        .tolerance(1e-6);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ out, const float* __restrict__ in) {
  constexpr int bx = @(c.params["block_x"].as_int());
  constexpr int by = @(c.params["block_y"].as_int());
  constexpr int ox = @(c.params["out_x"].as_int());
  constexpr int oy = @(c.params["out_y"].as_int());
  int x0 = (blockIdx.x * bx + threadIdx.x) * ox;
  int y0 = (blockIdx.y * by + threadIdx.y) * oy;
  // WO and HO are multiples of ox and oy: a thread's outputs are all in or
  // all out.
  if (x0 >= WO || y0 >= HO)
    return;
  const float* p = in + size_t(blockIdx.z) * H * W;
  float m[oy][ox];
#pragma unroll
  for (int a = 0; a < oy; ++a)
#pragma unroll
    for (int b = 0; b < ox; ++b)
      m[a][b] = -INFINITY;
#pragma unroll
  for (int i = 0; i < 2 * oy + 1; ++i) {
    int r = 2 * y0 - 1 + i;
    if (r < 0 || r >= H)
      continue;
#pragma unroll
    for (int j = 0; j < 2 * ox + 1; ++j) {
      int col = 2 * x0 - 1 + j;
      if (col < 0 || col >= W)
        continue;
      float v = p[r * W + col];
#pragma unroll
      for (int a = 0; a < oy; ++a)
#pragma unroll
        for (int b = 0; b < ox; ++b)
          if (i >= 2 * a && i <= 2 * a + 2 && j >= 2 * b && j <= 2 * b + 2)
            m[a][b] = fmaxf(m[a][b], v);
    }
  }
  float* q = out + size_t(blockIdx.z) * HO * WO;
#pragma unroll
  for (int a = 0; a < oy; ++a)
#pragma unroll
    for (int b = 0; b < ox; ++b)
      q[(y0 + a) * WO + x0 + b] = m[a][b];
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct maxpool_kernel {
  const char* name;
  void (*kernel)(float*, const float*);
  int bx, by, ox, oy;
};
const maxpool_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["block_x"].as_int()), @(c.params["block_y"].as_int()),
     @(c.params["out_x"].as_int()), @(c.params["out_y"].as_int())},
  }
};

// Values of both signs (the padding must not win) in steps of 1/8: the
// maximum is exact, so any error is a wrong window.
struct maxpool_problem {
  static constexpr size_t in_elems = size_t(PLANES) * H * W;
  static constexpr size_t out_elems = size_t(PLANES) * HO * WO;
  std::vector<float> ref = std::vector<float>(out_elems), got = std::vector<float>(out_elems);
  float *din = nullptr, *dout = nullptr;

  explicit maxpool_problem(const std::vector<long long>&) {
    std::vector<float> in(in_elems);
    for (size_t i = 0; i < in_elems; ++i)
      in[i] = float(int((unsigned(i) * 2654435761u) >> 21) - 1024) / 8;
    for (size_t z = 0; z < size_t(PLANES); ++z)
      for (int y = 0; y < HO; ++y)
        for (int x = 0; x < WO; ++x) {
          float m = -INFINITY;
          for (int r = 2 * y - 1; r <= 2 * y + 1; ++r)
            for (int col = 2 * x - 1; col <= 2 * x + 1; ++col)
              if (r >= 0 && r < H && col >= 0 && col < W)
                m = std::fmax(m, in[(z * H + r) * W + col]);
          ref[(z * HO + y) * WO + x] = m;
        }
    METACU_CHECK(cudaMalloc(&din, in_elems * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, out_elems * sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, in.data(), in_elems * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dout, 0xff, out_elems * sizeof(float))); } // NaN
  void launch(size_t i) {
    const maxpool_kernel& k = kernels[i];
    int tx = k.bx * k.ox, ty = k.by * k.oy;
    k.kernel<<<dim3((WO + tx - 1) / tx, (HO + ty - 1) / ty, PLANES), dim3(k.bx, k.by)>>>(dout, din);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(got.data(), dout, out_elems * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t i = 0; i < out_elems; ++i) {
      double d = std::fabs(double(got[i]) - double(ref[i]));
      if (!(d <= e))
        e = std::isnan(d) ? INFINITY : d;
    }
    return e;
  }
};
METACU_TUNE_MAIN(maxpool_problem)
#endif
