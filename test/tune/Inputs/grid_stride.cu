// A grid-stride sum whose passes come from n, a parameter, for the model's
// predictions: the tune space's problem size is n's value.
#include <metacu/runtime.h>

@meta metacu::tune_space space =
    metacu::tune_space("grid_stride")
        .param("blocks", {132, 264})
        .launch([](const metacu::json& p) {
          return metacu::tune_launch{{256}, {p["blocks"].as_int()}};
        })
        .problem_size({1 << 26});

@meta for (const metacu::tune_candidate& c : metacu::tune_candidates(space)) {
__global__ void @(c.name)(const float* in, int n, float* out) {
  float sum = 0.0f;
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    sum += in[i];
  out[blockIdx.x * 256 + threadIdx.x] = sum;
}
}
