// softmax: each row of a 16,384 x 2,048 float matrix replaced by its softmax
// (the attention and classifier kernel): per row a maximum, a sum of
// exponentials and a scaled write, each a reduction over the row's threads
// by warp shuffles and, past one warp, shared memory and a barrier. A block
// of threads_per_row x rows threads takes `rows` rows; each thread loads
// float, float2 or float4 vectors (`vector`) and either keeps its part of the
// row in registers (`registers`: one pass over global memory, fully
// unrolled) or reads it again for the sum and for the write (three loops
// over the row, the second and third finding it in L1 or L2). Held out from
// the model of `metacu report`: measured on the GPU before the model was run
// on it once (docs/report.md, "Kernels the model was not built around").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int ROWS = 16384;
constexpr int COLS = 2048;

@meta metacu::tune_space space =
    metacu::tune_space("softmax")
        .param("threads_per_row", {32, 64, 128, 256, 512, 1024})
        .param("rows", {1, 2, 4, 8})
        .param("vector", {1, 2, 4})
        .flag("registers")
        .require([](const metacu::json& p) {
          long long t = p["threads_per_row"].as_int(), r = p["rows"].as_int(),
                    v = p["vector"].as_int();
          return t * r <= 1024 && t * v <= COLS;
        })
        .launch([](const metacu::json& p) {
          long long r = p["rows"].as_int();
          return metacu::tune_launch{{p["threads_per_row"].as_int(), r}, {ROWS / r}};
        })
        .problem_size({ROWS})
        .tolerance(1e-6);

__device__ inline float vmax(float a) { return a; }
__device__ inline float vmax(float2 a) { return fmaxf(a.x, a.y); }
__device__ inline float vmax(float4 a) { return fmaxf(fmaxf(a.x, a.y), fmaxf(a.z, a.w)); }
__device__ inline float vexpsum(float a, float m) { return __expf(a - m); }
__device__ inline float vexpsum(float2 a, float m) { return __expf(a.x - m) + __expf(a.y - m); }
__device__ inline float vexpsum(float4 a, float m) {
  return __expf(a.x - m) + __expf(a.y - m) + __expf(a.z - m) + __expf(a.w - m);
}
__device__ inline float vscale(float a, float m, float s) { return __expf(a - m) * s; }
__device__ inline float2 vscale(float2 a, float m, float s) {
  return make_float2(__expf(a.x - m) * s, __expf(a.y - m) * s);
}
__device__ inline float4 vscale(float4 a, float m, float s) {
  return make_float4(__expf(a.x - m) * s, __expf(a.y - m) * s, __expf(a.z - m) * s,
                     __expf(a.w - m) * s);
}

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ out, const float* __restrict__ in) {
  constexpr int tpr = @(c.params["threads_per_row"].as_int());
  constexpr int rows = @(c.params["rows"].as_int());
  @meta int vec = c.params["vector"].as_int();
  @meta std::string type = vec == 1 ? "float" : "float" + std::to_string(vec);
  using V = @(type);
  constexpr int n = COLS / @(vec);
  constexpr int warps = tpr / 32;
  size_t row = size_t(blockIdx.x) * rows + threadIdx.y;
  const V* x = reinterpret_cast<const V*>(in + row * COLS);
  V* y = reinterpret_cast<V*>(out + row * COLS);
  __shared__ float part[rows][warps];
  float m = -INFINITY;
  [[maybe_unused]] V v[n / tpr]; // the row's part kept in registers (unused without `registers`)
  @meta if (c.params["registers"].as_bool()) {
#pragma unroll
    for (int i = 0; i < n / tpr; ++i) {
      v[i] = x[threadIdx.x + i * tpr];
      m = fmaxf(m, vmax(v[i]));
    }
  } else {
    for (int i = threadIdx.x; i < n; i += tpr)
      m = fmaxf(m, vmax(x[i]));
  }
  for (int o = 16; o > 0; o /= 2)
    m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  if (warps > 1) {
    if (threadIdx.x % 32 == 0)
      part[threadIdx.y][threadIdx.x / 32] = m;
    __syncthreads();
    for (int w = 0; w < warps; ++w)
      m = fmaxf(m, part[threadIdx.y][w]);
    __syncthreads();
  }
  float s = 0;
  @meta if (c.params["registers"].as_bool()) {
#pragma unroll
    for (int i = 0; i < n / tpr; ++i)
      s += vexpsum(v[i], m);
  } else {
    for (int i = threadIdx.x; i < n; i += tpr)
      s += vexpsum(x[i], m);
  }
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_xor_sync(0xffffffffu, s, o);
  if (warps > 1) {
    if (threadIdx.x % 32 == 0)
      part[threadIdx.y][threadIdx.x / 32] = s;
    __syncthreads();
    s = 0;
    for (int w = 0; w < warps; ++w)
      s += part[threadIdx.y][w];
  }
  float inv = 1.0f / s;
  @meta if (c.params["registers"].as_bool()) {
#pragma unroll
    for (int i = 0; i < n / tpr; ++i)
      y[threadIdx.x + i * tpr] = vscale(v[i], m, inv);
  } else {
    for (int i = threadIdx.x; i < n; i += tpr)
      y[i] = vscale(x[i], m, inv);
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct softmax_kernel {
  const char* name;
  void (*kernel)(float*, const float*);
  int tpr, rows;
};
const softmax_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["threads_per_row"].as_int()), @(c.params["rows"].as_int())},
  }
};

struct softmax_problem {
  static constexpr size_t elems = size_t(ROWS) * COLS;
  std::vector<float> in, got, ref;
  float *din = nullptr, *dout = nullptr;
  // Every 64th row is checked on the CPU (outputs about 1 / COLS).
  static constexpr int checked = 64;

  explicit softmax_problem(const std::vector<long long>&) : in(elems), got(elems), ref(elems) {
    for (size_t i = 0; i < elems; ++i)
      in[i] = float(int(i * 7919 % 1021) - 510) / 128;
    for (size_t r = 0; r < ROWS; r += checked) {
      const float* x = &in[r * COLS];
      double m = x[0], s = 0;
      for (int c = 0; c < COLS; ++c)
        m = std::fmax(m, x[c]);
      for (int c = 0; c < COLS; ++c)
        s += std::exp(double(x[c]) - m);
      for (int c = 0; c < COLS; ++c)
        ref[r * COLS + c] = float(std::exp(double(x[c]) - m) / s);
    }
    METACU_CHECK(cudaMalloc(&din, elems * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, elems * sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, in.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dout, 0xff, elems * sizeof(float))); } // NaN
  void launch(size_t i) {
    const softmax_kernel& k = kernels[i];
    k.kernel<<<dim3(ROWS / k.rows), dim3(k.tpr, k.rows)>>>(dout, din);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(got.data(), dout, elems * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (size_t r = 0; r < ROWS; r += checked)
      for (size_t i = r * COLS; i < (r + 1) * COLS; ++i) {
        double d = std::fabs(got[i] - ref[i]);
        if (!(d <= e))
          e = std::isnan(d) ? INFINITY : d;
      }
    return e;
  }
};
METACU_TUNE_MAIN(softmax_problem)
#endif
