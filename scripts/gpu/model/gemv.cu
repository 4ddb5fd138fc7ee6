// gemv: y = A x for a 14,336 x 4,096 float matrix (a language model's
// feed-forward projection at batch one, the decode step's kernel): each row's
// dot product with x reduced over the row's threads by warp shuffles and,
// past one warp, shared memory and a barrier. A block of threads_per_row x
// row_groups threads takes row_groups x rows_per_thread rows; each thread
// walks its rows in float, float2 or float4 vectors (`vector`), loading each
// vector of x once for its rows_per_thread rows (x's reuse in registers
// against the accumulators and the rows in flight). Held out from the model
// of `metacu report`: its predictions were committed before it was measured
// on the GPU (docs/report.md, "Two more held-out kernels").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int ROWS = 14336;
constexpr int COLS = 4096;

@meta metacu::tune_space space =
    metacu::tune_space("gemv")
        .param("threads_per_row", {32, 64, 128, 256, 512, 1024})
        .param("row_groups", {1, 2, 4, 8})
        .param("rows_per_thread", {1, 2, 4})
        .param("vector", {1, 2, 4})
        .require([](const metacu::json& p) {
          return p["threads_per_row"].as_int() * p["row_groups"].as_int() <= 1024;
        })
        .launch([](const metacu::json& p) {
          long long g = p["row_groups"].as_int();
          return metacu::tune_launch{{p["threads_per_row"].as_int(), g},
                                     {ROWS / (g * p["rows_per_thread"].as_int())}};
        })
        .problem_size({ROWS})
        .tolerance(1e-3);

__device__ inline float vdot(float a, float b) { return a * b; }
__device__ inline float vdot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
__device__ inline float vdot(float4 a, float4 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
}

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ y, const float* __restrict__ A,
                          const float* __restrict__ x) {
  constexpr int tpr = @(c.params["threads_per_row"].as_int());
  constexpr int groups = @(c.params["row_groups"].as_int());
  constexpr int rpt = @(c.params["rows_per_thread"].as_int());
  @meta int vec = c.params["vector"].as_int();
  @meta std::string type = vec == 1 ? "float" : "float" + std::to_string(vec);
  using V = @(type);
  constexpr int n = COLS / @(vec);
  constexpr int warps = tpr / 32;
  size_t row = (size_t(blockIdx.x) * groups + threadIdx.y) * rpt;
  const V* a = reinterpret_cast<const V*>(A + row * COLS);
  const V* xv = reinterpret_cast<const V*>(x);
  float acc[rpt];
#pragma unroll
  for (int r = 0; r < rpt; ++r)
    acc[r] = 0;
  for (int i = threadIdx.x; i < n; i += tpr) {
    V xi = xv[i];
#pragma unroll
    for (int r = 0; r < rpt; ++r)
      acc[r] += vdot(a[r * n + i], xi);
  }
#pragma unroll
  for (int r = 0; r < rpt; ++r)
    for (int o = 16; o > 0; o /= 2)
      acc[r] += __shfl_xor_sync(0xffffffffu, acc[r], o);
  if (warps == 1) { // every lane holds the sums
    if (threadIdx.x == 0)
#pragma unroll
      for (int r = 0; r < rpt; ++r)
        y[row + r] = acc[r];
    return;
  }
  __shared__ float part[groups][rpt][warps];
  if (threadIdx.x % 32 == 0)
#pragma unroll
    for (int r = 0; r < rpt; ++r)
      part[threadIdx.y][r][threadIdx.x / 32] = acc[r];
  __syncthreads();
  if (threadIdx.x < rpt) {
    float s = 0;
    for (int w = 0; w < warps; ++w)
      s += part[threadIdx.y][threadIdx.x][w];
    y[row + threadIdx.x] = s;
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct gemv_kernel {
  const char* name;
  void (*kernel)(float*, const float*, const float*);
  int tpr, groups, rpt;
};
const gemv_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["threads_per_row"].as_int()), @(c.params["row_groups"].as_int()),
     @(c.params["rows_per_thread"].as_int())},
  }
};

// Entries are multiples of 1/8 and 1/4 small enough that every partial sum
// is exact in float: any order of the additions gives the CPU's result.
struct gemv_problem {
  static constexpr size_t elems = size_t(ROWS) * COLS;
  std::vector<float> a, x, got, ref;
  float *da = nullptr, *dx = nullptr, *dy = nullptr;

  explicit gemv_problem(const std::vector<long long>&) : a(elems), x(COLS), got(ROWS), ref(ROWS) {
    for (size_t i = 0; i < elems; ++i)
      a[i] = float(int(i * 7 % 13) - 6) / 8;
    for (int j = 0; j < COLS; ++j)
      x[j] = float(int(j * 5 % 11) - 5) / 4;
    for (int r = 0; r < ROWS; ++r) {
      double s = 0;
      for (int j = 0; j < COLS; ++j)
        s += double(a[size_t(r) * COLS + j]) * x[j];
      ref[r] = float(s);
    }
    METACU_CHECK(cudaMalloc(&da, elems * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dx, COLS * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dy, ROWS * sizeof(float)));
    METACU_CHECK(cudaMemcpy(da, a.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(dx, x.data(), COLS * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dy, 0xff, ROWS * sizeof(float))); } // NaN
  void launch(size_t i) {
    const gemv_kernel& k = kernels[i];
    k.kernel<<<dim3(ROWS / (k.groups * k.rpt)), dim3(k.tpr, k.groups)>>>(dy, da, dx);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(got.data(), dy, ROWS * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (int r = 0; r < ROWS; ++r) {
      double d = std::fabs(got[r] - ref[r]);
      if (!(d <= e))
        e = std::isnan(d) ? INFINITY : d;
    }
    return e;
  }
};
METACU_TUNE_MAIN(gemv_problem)
#endif
