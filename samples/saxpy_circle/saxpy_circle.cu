// saxpy_circle: the saxpy program of Circle's kernel-launch article, in
// metacu.
//
// One std::map holds the launch parameters of each architecture. The kernel
// loops over the target architectures at generation time; for each one,
// 'if codegen' keeps a branch in that architecture's image only, and meta
// code reads the map there, so the parameters are compile-time constants
// of the helper template (loads unrolled and issued before any arithmetic).
// The host reads the same map at run time, keyed on the architecture of
// the image the driver loaded, to size the grid; a tag overload
// (metacu::sm_t) names the variant that runs. As in Circle, the helper has
// no __device__: metacu emits it __host__ __device__ because the kernel
// calls it. The one change nvcc forces: architectures sm_75 and newer.
//
//   saxpy_circle [n]    (default 1000000 values)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

struct launch_params {
  int nt; // threads per block
  int vt; // values per thread
};

// Best fit by architecture: sm_86 uses the sm_80 entry.
const std::map<int, launch_params> saxpy_params{
    {75, {128, 4}},
    {80, {256, 8}},
    {90, {256, 12}},
};

// One thread's vt values, nt apart, with every load issued before the
// first multiply-add. nt and vt are template parameters, so the loops are
// unrolled per instantiation.
template <int nt, int vt, class T>
void saxpy_thread(T a, const T* x, T* y, size_t first, size_t n) {
  T xs[vt] = {}, ys[vt] = {};
  @meta for (int i = 0; i < vt; ++i) {
    if (first + i * nt < n) {
      xs[i] = x[first + i * nt];
      ys[i] = y[first + i * nt];
    }
  }
  @meta for (int i = 0; i < vt; ++i)
    ys[i] += a * xs[i];
  @meta for (int i = 0; i < vt; ++i) {
    if (first + i * nt < n)
      y[first + i * nt] = ys[i];
  }
}

// sm_dispatch: one branch per target architecture, each with that
// architecture's parameters as constants.
template <class T>
__global__ void saxpy(T a, const T* x, T* y, size_t n) {
  @meta for enum (auto sm : nvvm_arch_t) {
    if codegen (__nvvm_arch == sm) {
      @meta launch_params p = metacu::select(saxpy_params, (int)sm);
      size_t first = size_t(blockIdx.x) * (p.nt * p.vt) + threadIdx.x;
      saxpy_thread<p.nt, p.vt>(a, x, y, first, n);
    }
  }
}

// Tags: the variant's name, picked by overload resolution on the loaded
// architecture (sm_t<86> is an sm_t<80>).
const char* variant(metacu::sm_t<75>) { return "Turing tuning"; }
const char* variant(metacu::sm_t<80>) { return "Ampere tuning"; }
const char* variant(metacu::sm_t<90>) { return "Hopper tuning"; }

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  const float a = 3.14f;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float(i % 1000) * 0.5f;
    y[i] = float(i % 17);
  }

  int arch = metacu::loaded_arch(saxpy<float>);
  launch_params p = metacu::select(saxpy_params, arch);
  const char* name = metacu::dispatch_arch<75, 80, 90>(
      arch, [](auto tag) { return variant(tag); });
  size_t per_block = size_t(p.nt) * p.vt;
  unsigned blocks = unsigned((n + per_block - 1) / per_block);

  float *dx = nullptr, *dy = nullptr;
  METACU_CHECK(cudaMalloc(&dx, n * sizeof(float)));
  METACU_CHECK(cudaMalloc(&dy, n * sizeof(float)));
  METACU_CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  METACU_CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  if (blocks > 0)
    saxpy<<<blocks, p.nt>>>(a, dx, dy, n);
  METACU_CHECK(cudaGetLastError());
  METACU_CHECK(cudaDeviceSynchronize());
  std::vector<float> out(n);
  METACU_CHECK(cudaMemcpy(out.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  METACU_CHECK(cudaFree(dx));
  METACU_CHECK(cudaFree(dy));

  // nvcc fuses a * x + y into one rounding; allow for the CPU's two.
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    float want = a * x[i] + y[i];
    if (!(std::fabs(out[i] - want) <= 1e-6f * std::fabs(want) + 1e-6f))
      ++bad;
  }
  std::printf("saxpy_circle: n=%zu, loaded image sm_%d (%s), %d threads x %d "
              "values, %u blocks: %s\n",
              n, arch, name, p.nt, p.vt, blocks,
              bad ? "MISMATCH" : "matches CPU");
  return bad ? 1 : 0;
}
