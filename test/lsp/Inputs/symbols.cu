// Functions a meta loop generates, a meta value used in ordinary code and
// a body unrolled by a meta loop (test/lsp/test_lsp.py).
#include <string>

struct config {
  int nt; // threads per block
  int vt; // values per thread
};

@meta config cfg{128, 4};

@meta for (int i = 1; i <= 3; ++i) {
  __device__ float @("scale_" + std::to_string(i))(float x) { return x * i; }
}

__global__ void copy(float* out, const float* in) {
  int threads = cfg.nt;
  @meta for (int k = 0; k < cfg.vt; ++k) {
    float value = in[threadIdx.x + k * threads];
    out[threadIdx.x + k * threads] = scale_2(value);
  }
}
