// scan: the exclusive prefix sum of each row of a 16,384 x 4,096 float
// matrix (a segmented scan's rows: stream compaction offsets, cumulative
// sums along a sequence). A block of threads_per_row x rows threads takes
// `rows` rows; a row is walked in tiles of threads_per_row x `vector`
// values: each thread loads a float, float2 or float4 vector, scans it, the
// warp scans its threads' totals by shuffles (__shfl_up_sync, five steps),
// past one warp the warps' totals meet in shared memory between two
// barriers, and the tile's total carries to the next. `unroll` tiles a
// loop pass (#pragma unroll), whose loads nvcc may issue together where no
// barrier stands between them. Held out from the model of `metacu report`:
// its predictions were committed before it was measured on the GPU
// (docs/report.md, "Grid-stride loops, lanes that share a range,
// overlapping windows").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int ROWS = 16384;
constexpr int COLS = 4096;

@meta metacu::tune_space space =
    metacu::tune_space("scan")
        .param("threads_per_row", {32, 64, 128, 256, 512, 1024})
        .param("rows", {1, 2, 4, 8})
        .param("vector", {1, 2, 4})
        .param("unroll", {1, 2, 4})
        .require([](const metacu::json& p) {
          long long t = p["threads_per_row"].as_int(), r = p["rows"].as_int(),
                    v = p["vector"].as_int(), u = p["unroll"].as_int();
          return t * r <= 1024 && t * v * u <= COLS;
        })
        .launch([](const metacu::json& p) {
          long long r = p["rows"].as_int();
          return metacu::tune_launch{{p["threads_per_row"].as_int(), r}, {ROWS / r}};
        })
        .problem_size({ROWS})
        .tolerance(0.5);

// A thread's vector scanned in place (inclusive); returns its total.
__device__ inline float vscan(float& a) { return a; }
__device__ inline float vscan(float2& a) {
  a.y += a.x;
  return a.y;
}
__device__ inline float vscan(float4& a) {
  a.y += a.x;
  a.z += a.y;
  a.w += a.z;
  return a.w;
}
// The inclusive scan made exclusive and moved by `base`.
__device__ inline float vshift(float, float base) { return base; }
__device__ inline float2 vshift(float2 a, float base) {
  return make_float2(base, base + a.x);
}
__device__ inline float4 vshift(float4 a, float base) {
  return make_float4(base, base + a.x, base + a.y, base + a.z);
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
  constexpr int unroll = @(c.params["unroll"].as_int());
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  size_t row = size_t(blockIdx.x) * rows + threadIdx.y;
  const V* x = reinterpret_cast<const V*>(in + row * COLS);
  V* y = reinterpret_cast<V*>(out + row * COLS);
  __shared__ float part[rows][warps];
  float carry = 0;
#pragma unroll (unroll)
  for (int i = threadIdx.x; i < n; i += tpr) {
    V v = x[i];
    float total = vscan(v);
    float t = total;
#pragma unroll
    for (int o = 1; o < 32; o *= 2) {
      float u = __shfl_up_sync(0xffffffffu, t, o);
      if (lane >= o)
        t += u;
    }
    // t: the inclusive scan of the warp's totals up to this thread.
    float before = 0, tile = __shfl_sync(0xffffffffu, t, 31);
    if (warps > 1) {
      if (lane == 31)
        part[threadIdx.y][warp] = t;
      __syncthreads();
      tile = 0;
      for (int w = 0; w < warps; ++w) {
        float p = part[threadIdx.y][w];
        tile += p;
        if (w < warp)
          before += p;
      }
      __syncthreads();
    }
    y[i] = vshift(v, carry + before + t - total);
    carry += tile;
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct scan_kernel {
  const char* name;
  void (*kernel)(float*, const float*);
  int tpr, rows;
};
const scan_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["threads_per_row"].as_int()), @(c.params["rows"].as_int())},
  }
};

// Small integers (-4 to 4): every partial sum of a row is an integer below
// 2^24 in magnitude, exact in float, so any order of the additions gives
// the CPU's result and the tolerance is 0.
struct scan_problem {
  static constexpr size_t elems = size_t(ROWS) * COLS;
  std::vector<float> in, got, ref;
  float *din = nullptr, *dout = nullptr;
  // Every 64th row is checked on the CPU.
  static constexpr int checked = 64;

  explicit scan_problem(const std::vector<long long>&) : in(elems), got(elems), ref(elems) {
    for (size_t i = 0; i < elems; ++i)
      in[i] = float(int(i * 7919 % 9) - 4);
    for (size_t r = 0; r < ROWS; r += checked) {
      float s = 0;
      for (int c = 0; c < COLS; ++c) {
        ref[r * COLS + c] = s;
        s += in[r * COLS + c];
      }
    }
    METACU_CHECK(cudaMalloc(&din, elems * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dout, elems * sizeof(float)));
    METACU_CHECK(cudaMemcpy(din, in.data(), elems * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dout, 0xff, elems * sizeof(float))); } // NaN
  void launch(size_t i) {
    const scan_kernel& k = kernels[i];
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
METACU_TUNE_MAIN(scan_problem)
#endif
