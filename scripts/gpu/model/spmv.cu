// spmv: y = A x for the 7-point Laplacian of a 128 x 128 x 128 grid in CSR
// (2,097,152 rows, 14.5 million nonzeros; the inner product of a conjugate
// gradient solver): the vector CSR kernel. threads_per_row lanes (1 to a
// warp) share a row, walking its nonzeros at that stride and adding their
// products by shuffles; each group of lanes takes rows_per_group
// consecutive rows in turn; block_size threads a block. One lane a row
// reads its row's nonzeros alone and a warp's lanes far apart; many lanes a
// row leave most of them idle on 7 nonzeros. The loop's trip count is the
// matrix's (row_ptr), not the launch's. Held out from the model of `metacu
// report`: its predictions were committed before it was measured on the GPU
// (docs/report.md, "Held out and measured first: maxpool and spmv").
#include <cmath>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

constexpr int SIDE = 128;
constexpr int ROWS = SIDE * SIDE * SIDE;

@meta metacu::tune_space space =
    metacu::tune_space("spmv")
        .param("threads_per_row", {1, 2, 4, 8, 16, 32})
        .param("block_size", {64, 128, 256, 512, 1024})
        .param("rows_per_group", {1, 2, 4, 8})
        .launch([](const metacu::json& p) {
          long long groups = p["block_size"].as_int() / p["threads_per_row"].as_int();
          return metacu::tune_launch{{p["block_size"].as_int()},
                                     {ROWS / (groups * p["rows_per_group"].as_int())}};
        })
        .problem_size({ROWS})
        .tolerance(1e-6);

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(float* __restrict__ y, const int* __restrict__ row_ptr,
                          const int* __restrict__ col, const float* __restrict__ val,
                          const float* __restrict__ x, int rows) {
  constexpr int tpr = @(c.params["threads_per_row"].as_int());
  constexpr int threads = @(c.params["block_size"].as_int());
  constexpr int rpg = @(c.params["rows_per_group"].as_int());
  int lane = threadIdx.x % tpr;
  int group = blockIdx.x * (threads / tpr) + threadIdx.x / tpr;
#pragma unroll
  for (int k = 0; k < rpg; ++k) {
    int row = group * rpg + k;
    float s = 0;
    if (row < rows)
      for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += tpr)
        s += val[j] * x[col[j]];
    // Every lane of the warp shuffles, in range or not.
#pragma unroll
    for (int o = tpr / 2; o > 0; o /= 2)
      s += __shfl_down_sync(0xffffffffu, s, o, tpr);
    if (lane == 0 && row < rows)
      y[row] = s;
  }
}
}

#ifdef METACU_TUNE
#include <metacu/tune.h>

struct spmv_kernel {
  const char* name;
  void (*kernel)(float*, const int*, const int*, const float*, const float*, int);
  int tpr, block, rpg;
};
const spmv_kernel kernels[] = {
  @meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
    {c.name, @(c.name), @(c.params["threads_per_row"].as_int()), @(c.params["block_size"].as_int()),
     @(c.params["rows_per_group"].as_int())},
  }
};

// The Laplacian's 6 on the diagonal and -1 to each neighbour inside the
// grid, x in steps of 1/4: every partial sum is exact in float, so any order
// of the additions gives the CPU's result.
struct spmv_problem {
  int rows;
  std::vector<float> ref, got;
  int *drow = nullptr, *dcol = nullptr;
  float *dval = nullptr, *dx = nullptr, *dy = nullptr;

  explicit spmv_problem(const std::vector<long long>& size)
      : rows(int(size.at(0))), ref(rows), got(rows) {
    std::vector<int> row_ptr{0}, col;
    std::vector<float> val, x(rows);
    for (int j = 0; j < rows; ++j)
      x[j] = float(int(j * 5 % 11) - 5) / 4;
    for (int r = 0; r < rows; ++r) {
      int i = r % SIDE, j = r / SIDE % SIDE, k = r / (SIDE * SIDE);
      auto add = [&](bool inside, int c, float v) {
        if (inside) {
          col.push_back(c);
          val.push_back(v);
        }
      };
      add(k > 0, r - SIDE * SIDE, -1);
      add(j > 0, r - SIDE, -1);
      add(i > 0, r - 1, -1);
      add(true, r, 6);
      add(i < SIDE - 1, r + 1, -1);
      add(j < SIDE - 1, r + SIDE, -1);
      add(k < SIDE - 1, r + SIDE * SIDE, -1);
      row_ptr.push_back(int(col.size()));
      double s = 0;
      for (int n = row_ptr[r]; n < row_ptr[r + 1]; ++n)
        s += double(val[n]) * x[col[n]];
      ref[r] = float(s);
    }
    size_t nnz = col.size();
    METACU_CHECK(cudaMalloc(&drow, (rows + 1) * sizeof(int)));
    METACU_CHECK(cudaMalloc(&dcol, nnz * sizeof(int)));
    METACU_CHECK(cudaMalloc(&dval, nnz * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dx, rows * sizeof(float)));
    METACU_CHECK(cudaMalloc(&dy, rows * sizeof(float)));
    METACU_CHECK(cudaMemcpy(drow, row_ptr.data(), (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(dcol, col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(dval, val.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    METACU_CHECK(cudaMemcpy(dx, x.data(), rows * sizeof(float), cudaMemcpyHostToDevice));
  }
  size_t candidates() const { return sizeof kernels / sizeof kernels[0]; }
  void clear() { METACU_CHECK(cudaMemset(dy, 0xff, rows * sizeof(float))); } // NaN
  void launch(size_t i) {
    const spmv_kernel& k = kernels[i];
    k.kernel<<<rows / (k.block / k.tpr * k.rpg), k.block>>>(dy, drow, dcol, dval, dx, rows);
  }
  double error() {
    METACU_CHECK(cudaMemcpy(got.data(), dy, rows * sizeof(float), cudaMemcpyDeviceToHost));
    double e = 0;
    for (int r = 0; r < rows; ++r) {
      double d = std::fabs(double(got[r]) - double(ref[r]));
      if (!(d <= e))
        e = std::isnan(d) ? INFINITY : d;
    }
    return e;
  }
};
METACU_TUNE_MAIN(spmv_problem)
#endif
