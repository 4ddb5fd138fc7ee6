// RUN: %check-golden %s -- --arch 80
// Meta declarations at namespace and class scope, meta loops that generate
// declarations (their braces are dropped there), and splices that build
// identifiers.
#include <string>

@meta int lanes = 4;
@meta std::string prefix = "coef_";

namespace filters {
@meta for (int i = 0; i < lanes; ++i) {
__constant__ float @(prefix + std::to_string(i)) = @(0.25f * i);
}
} // namespace filters

struct lane_state {
  @meta int extra = 1;
  @meta for (int i = 0; i < lanes + extra; ++i)
    float @("v" + std::to_string(i));
};

__global__ void scale(float* out) {
  lane_state s{};
  @meta for (int i = 0; i < lanes; ++i) {
    s.@("v" + std::to_string(i)) = filters::@(prefix + std::to_string(i));
  }
  out[threadIdx.x] = s.v0 + s.v3 + lanes;
}
