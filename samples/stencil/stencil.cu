// stencil: one explicit step of the heat equation on a 2D float grid with
// the fourth-order Laplacian, a radius-2 star (the point, and two neighbours
// each way in x and in y), out of place, with its shape per architecture from
// stencil.tuning.json and a tuning space for `metacu tune`.
//
// The grid carries a ghost layer of `radius` cells on every side (the
// boundary values), so every output has all its inputs and the kernel has
// no bounds check. Each block stages its tile of the input and the tile's
// halo in shared memory, then each thread computes tile_y outputs down one
// column, keeping the column's inputs in registers as it goes (tile_y + 4
// shared-memory loads for the column, 4 per output for the row).
//
// A stencil is the memory-bound kernel people tune, because the tile's
// shape decides how many bytes move: a block of out_w x out_h outputs reads
// (out_w + 4) x (out_h + 4) inputs, 5.6 times its outputs' worth for a
// 32 x 1 tile and about 1.1 times for 64 x 128. The halo that neighbouring
// blocks share comes mostly from L2 rather than DRAM, but every byte of it
// is a load issued and a byte through L2 and shared memory. Larger tiles
// cost shared memory (fewer blocks per SM) and longer staging before the
// barrier. One call, metacu::tuned_kernels, gives meta code each image's
// shape from the tuning file (compile-time constants, so the staging and
// the stencil are unrolled) and the host the same shapes, keyed on
// metacu::loaded_arch, to size the grid. `metacu tune stencil.cu --arch 90`
// searches the shapes and writes the file's entry.
//
//   stencil [width height]    (default 8192 x 6144 outputs; multiples of the
//                              loaded image's tile)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>
#include <metacu/tuned.h>

#include "../common/sample.h"

constexpr int radius = 2;
// u + alpha * (d2u/dx2 + d2u/dy2), each second derivative to fourth order,
// (-u[-2] + 16 u[-1] - 30 u + 16 u[1] - u[2]) / 12: the weights of the
// point and of its neighbours at distance 1 and 2.
constexpr float alpha = 0.1f;
constexpr float weight[radius + 1] = {1.0f - 2 * 30 * alpha / 12, 16 * alpha / 12, -alpha / 12};

// Floats in a row of the input: the width and its ghost cells, rounded up
// so that every row starts 128-byte aligned.
inline int input_pitch(int width) { return (width + 2 * radius + 31) / 32 * 32; }

// What `metacu tune` searches: 6 block widths x 6 heights x 8 tile heights,
// at least a warp and at most 1024 threads, the staged tile within the 48
// KiB of static shared memory (the kernel refuses more): 190 shapes, from
// 32 x 1 outputs a block (5.6 inputs read per output) to 64 x 128 (1.1).
// The grid, 8192 x 6144 (3 x 2^11) outputs, is a multiple of every tile,
// and with its input (256 MiB in all) far larger than the H100's 50 MB L2.
constexpr int problem_w = 8192;
constexpr int problem_h = 6144;
@meta int staged_floats(int block_x, int block_y, int tile_y) {
  return (block_x + 2 * radius) * (block_y * tile_y + 2 * radius);
}
// The bytes a run must move: the input with its ghost cells read once, the
// output written once.
constexpr double problem_bytes =
    4.0 * (double(problem_w + 2 * radius) * (problem_h + 2 * radius) + double(problem_w) * problem_h);
@meta metacu::tune_space space =
    metacu::tune_space("stencil")
        .param("block_size_x", {16, 32, 64, 128, 256, 512})
        .param("block_size_y", {1, 2, 4, 8, 16, 32})
        .param("tile_size_y", {1, 2, 3, 4, 6, 8, 12, 16})
        .require([](const metacu::json& p) {
          int threads = p["block_size_x"].as_int() * p["block_size_y"].as_int();
          return threads >= 32 && threads <= 1024;
        })
        .require([](const metacu::json& p) {
          return staged_floats(p["block_size_x"].as_int(), p["block_size_y"].as_int(),
                               p["tile_size_y"].as_int()) * 4 <= 48 * 1024;
        })
        .launch([](const metacu::json& p) { // one block per tile, as stencil_problem::launch does
          long long out_h = p["block_size_y"].as_int() * p["tile_size_y"].as_int();
          return metacu::tune_launch{{p["block_size_x"].as_int(), p["block_size_y"].as_int()},
                                     {problem_w / p["block_size_x"].as_int(), problem_h / out_h}};
        })
        .problem_size({problem_w, problem_h})
        .metric("GB/s", problem_bytes / 1e9, metacu::tune_direction::maximize)
        .tolerance(1e-5);

// The kernel: one, named stencil, whose shape for each architecture is the
// tuning file's entry (its sm_75, sm_80 and sm_90 entries are starting
// points, not measured optima: a warp or more per row, a tile of 16 to 32
// rows), or under `metacu tune` one per candidate it measures.
@meta metacu::tuned_kernels kernels(space, "stencil.tuning.json",
    metacu::params({{"block_size_x", 128}, {"block_size_y", 4}, {"tile_size_y", 8}}));

@meta struct stencil_config {
  int block_x, block_y; // threads per block
  int tile_y;           // outputs per thread, down a column
};

// One tile per block, no bounds check: block (bx, by) writes outputs
// [bx * out_w, +out_w) x [by * out_h, +out_h) of out (rows of out_pitch
// floats) from in, whose rows of in_pitch floats start with the ghost cells
// (output (x, y) is input (x + radius, y + radius)).
//
// Staging: the block's threads copy the (out_w + 4) x (out_h + 4) window
// as one array, thread t taking elements t, t + threads, ...; in each round
// a warp loads 32 consecutive floats of the window (one or two rows; three
// where the window is 20 wide), so the loads coalesce, and only the last
// round, when the window is not a multiple of the block, is bounds-checked.
@meta for (const metacu::tuned_kernel& k : kernels) {
__global__ void @(k.name)(const float* __restrict__ in, int in_pitch, float* __restrict__ out,
                          int out_pitch) {
  @meta for enum (auto arch : nvvm_arch_t) {
    if codegen (__nvvm_arch == arch) {
      @meta const metacu::json& p = k.params(arch);
      @meta stencil_config c{p["block_size_x"].as_int(), p["block_size_y"].as_int(),
                             p["tile_size_y"].as_int()};
      @meta int threads = c.block_x * c.block_y;
      @meta int out_w = c.block_x, out_h = c.block_y * c.tile_y;
      @meta int in_w = out_w + 2 * radius;
      @meta int in_size = staged_floats(c.block_x, c.block_y, c.tile_y);
      @meta if (in_size * 4 > 48 * 1024)
        metacu::fail(k.name + ": the staged tile needs more than 48 KiB of shared memory");

      __shared__ float staged[in_size];
      const int x0 = blockIdx.x * out_w, y0 = blockIdx.y * out_h;
      // The window's first row and column in the input: the output tile's
      // origin less the radius, plus the ghost layer's radius.
      const float* window = in + size_t(y0) * in_pitch + x0;
      const int tid = threadIdx.y * c.block_x + threadIdx.x;
      auto stage = [&](int idx) { staged[idx] = window[(idx / in_w) * in_pitch + idx % in_w]; };
      @meta for (int s = 0; s * threads < in_size; ++s) {
        @meta if ((s + 1) * threads <= in_size) {
          stage(tid + @(s * threads));
        } else {
          if (tid < @(in_size - s * threads))
            stage(tid + @(s * threads));
        }
      }
      __syncthreads();

      // This thread's column of the window, from the first input its first
      // output needs (radius rows above it) to the last its last one needs.
      const float* column = &staged[threadIdx.y * @(c.tile_y * in_w) + threadIdx.x + radius];
      float u[c.tile_y + 2 * radius];
      @meta for (int j = 0; j < c.tile_y + 2 * radius; ++j)
        u[@(j)] = column[@(j * in_w)];
      float* dst = out + size_t(y0 + threadIdx.y * c.tile_y) * out_pitch + x0 + threadIdx.x;
      @meta for (int k = 0; k < c.tile_y; ++k) {
        const float* row = column + @((k + radius) * in_w);
        float sum = @(weight[0]) * u[@(k + radius)];
        @meta for (int d = 1; d <= radius; ++d)
          sum += @(weight[d]) * ((u[@(k + radius - d)] + u[@(k + radius + d)]) + (row[@(-d)] + row[@(d)]));
        dst[@(k) * out_pitch] = sum;
      }
    }
  }
}
}

// The input, the same in the program and the tuning problem: h + 2 * radius
// rows of w + 2 * radius values in [-1, 1) (ghost cells included), each row
// padded to input_pitch(w) floats.
static std::vector<float> make_input(int w, int h) {
  const int pitch = input_pitch(w);
  std::vector<float> in(size_t(h + 2 * radius) * pitch, 0.0f);
  unsigned state = 2026u;
  for (int y = 0; y < h + 2 * radius; ++y)
    for (int x = 0; x < w + 2 * radius; ++x) {
      state = state * 1664525u + 1013904223u;
      in[size_t(y) * pitch + x] = float(state >> 8) / float(1u << 23) - 1.0f;
    }
  return in;
}

// The CPU's value of output (x, y), in double.
static double reference(const std::vector<float>& in, int w, int x, int y) {
  const int pitch = input_pitch(w);
  auto at = [&](int dx, int dy) { return double(in[size_t(y + radius + dy) * pitch + x + radius + dx]); };
  double sum = weight[0] * at(0, 0);
  for (int d = 1; d <= radius; ++d)
    sum += weight[d] * (at(0, -d) + at(0, d) + at(-d, 0) + at(d, 0));
  return sum;
}

// The output rows checked against the CPU: the first and last rows (next to
// the ghost cells) and every 37th, which falls at every offset within a tile
// (37 is prime to every tile height) across the grid.
static std::vector<int> checked_rows(int h) {
  std::vector<int> rows;
  for (int y = 0; y < h; ++y)
    if (y < 2 * radius || y >= h - 2 * radius || y % 37 == 0)
      rows.push_back(y);
  return rows;
}

// The CPU's values of the checked rows, row after row.
static std::vector<double> reference_rows(const std::vector<float>& in, int w,
                                          const std::vector<int>& rows) {
  std::vector<double> ref(rows.size() * w);
  for (size_t r = 0; r < rows.size(); ++r)
    for (int x = 0; x < w; ++x)
      ref[r * w + x] = reference(in, w, x, rows[r]);
  return ref;
}

// The largest difference between the checked rows of dout (h rows of w
// floats) and ref; an output not written (NaN) counts as infinite.
static double max_error(const float* dout, int w, const std::vector<int>& rows,
                        const std::vector<double>& ref) {
  std::vector<float> row(w);
  double max_err = 0.0;
  for (size_t r = 0; r < rows.size(); ++r) {
    METACU_CHECK(cudaMemcpy(row.data(), dout + size_t(rows[r]) * w, w * sizeof(float),
                            cudaMemcpyDeviceToHost));
    for (int x = 0; x < w; ++x) {
      double err = std::fabs(row[x] - ref[r * w + x]);
      if (!(err <= max_err))
        max_err = std::isnan(err) ? INFINITY : err;
    }
  }
  return max_err;
}

// The kernels and their shapes on the host: the one kernel with the shape
// of the image the GPU loaded, or a tuning build's candidates.
const metacu::tuned_table<void(const float*, int, float*, int)> stencil_kernels =
    @(kernels.host_table());

// One run of kernel i of stencil_kernels over the w x h grid.
static void run_stencil(size_t i, const float* din, float* dout, int w, int h) {
  const metacu::tuned_config& c = stencil_kernels.config(i);
  dim3 block(c["block_size_x"], c["block_size_y"]);
  dim3 grid(w / c["block_size_x"], h / (c["block_size_y"] * c["tile_size_y"]));
  stencil_kernels.kernel(i)<<<grid, block>>>(din, input_pitch(w), dout, w);
}

// The tuning harness (metacu/tune.h): the input and the CPU's values of
// the checked rows, made once; each candidate is launched with its own grid
// and checked against them.
METACU_TUNE_ARRAYS(stencil_kernels.size(), [](metacu::tune::arrays& io) {
  const int w = int(io.size.at(0)), h = int(io.size.at(1));
  const std::vector<float> in = make_input(w, h);
  const float* din = io.input(in);
  std::vector<bool> checked(h);
  for (int y : checked_rows(h))
    checked[y] = true;
  float* dout = io.output<float>(
      size_t(w) * h, [&](size_t i) { return reference(in, w, int(i % w), int(i / w)); },
      [&](size_t i) { return checked[i / w]; });
  return [=](size_t i) { run_stencil(i, din, dout, w, h); };
})

#ifndef METACU_TUNE
int main(int argc, char** argv) {
  int w = argc > 2 ? std::atoi(argv[1]) : problem_w;
  int h = argc > 2 ? std::atoi(argv[2]) : problem_h;

  // The configuration of the image that runs (not the one the device's
  // compute capability would name: samples/axpy shows the difference).
  int arch = metacu::loaded_arch(stencil_kernels.kernel());
  int cc = device_compute_capability();
  const metacu::tuned_config& p = stencil_kernels.config();
  struct {
    int block_x, block_y, tile_y;
  } c = {int(p["block_size_x"]), int(p["block_size_y"]), int(p["tile_size_y"])};
  if (w <= 0 || h <= 0 || w % c.block_x != 0 || h % (c.block_y * c.tile_y) != 0) {
    std::fprintf(stderr,
                 "stencil: the grid must be a positive multiple of the loaded image's tile, "
                 "%d x %d outputs (sm_%d)\n",
                 c.block_x, c.block_y * c.tile_y, arch);
    return 2;
  }

  std::vector<float> in = make_input(w, h);
  std::vector<int> rows = checked_rows(h);
  std::vector<double> ref = reference_rows(in, w, rows);
  float *din = nullptr, *dout = nullptr, *dcopy = nullptr;
  METACU_CHECK(cudaMalloc(&din, in.size() * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dout, size_t(w) * h * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dcopy, size_t(w) * h * sizeof(float)));
  METACU_CHECK(cudaMemcpy(din, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));

  METACU_CHECK(cudaMemset(dout, 0xff, size_t(w) * h * sizeof(float))); // NaN
  run_stencil(0, din, dout, w, h);
  METACU_CHECK(cudaGetLastError());
  double err = max_error(dout, w, rows, ref);
  bool ok = err <= 1e-5;
  std::printf("stencil: %d x %d, compute capability %d.%d, loaded image sm_%d, "
              "%d x %d threads x %d rows: max error %.1e over %zu rows: %s\n",
              w, h, cc / 10, cc % 10, arch, c.block_x, c.block_y, c.tile_y, err, rows.size(),
              ok ? "ok" : "MISMATCH");
  std::printf("row|stencil|loaded image / config (loaded_arch)|sm_%d: %dx%dx%d|%s\n", arch,
              c.block_x, c.block_y, c.tile_y, ok ? "matches CPU" : "MISMATCH");

  // Bandwidth, counting the bytes a run must move: the input with its ghost
  // cells read once and the output written once (the halo's rereads are
  // not counted); a device-to-device copy of the output's size reads and
  // writes it.
  double bytes = 4.0 * (double(w + 2 * radius) * (h + 2 * radius) + double(w) * h);
  float ms = median_ms([&] { run_stencil(0, din, dout, w, h); });
  float copy_ms = median_ms([&] {
    METACU_CHECK(cudaMemcpyAsync(dcopy, dout, size_t(w) * h * sizeof(float),
                                 cudaMemcpyDeviceToDevice));
  });
  double gbs = bytes / (ms * 1e6);
  double copy_gbs = 2.0 * w * h * sizeof(float) / (copy_ms * 1e6);
  std::printf("stencil: %.1f GB/s (%.3f ms), cudaMemcpy device to device %.1f GB/s "
              "(%.3f ms): %.2fx\n",
              gbs, ms, copy_gbs, copy_ms, gbs / copy_gbs);
  std::printf("row|stencil|bandwidth vs cudaMemcpy D2D|%.0f vs %.0f GB/s|%.2fx\n", gbs, copy_gbs,
              gbs / copy_gbs);

  METACU_CHECK(cudaFree(din));
  METACU_CHECK(cudaFree(dout));
  METACU_CHECK(cudaFree(dcopy));
  return ok ? 0 : 1;
}
#endif
