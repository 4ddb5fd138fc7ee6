// RUN: %check-golden %s -- --arch 80
// A meta loop inside a braced list (an enumerator list, an initializer at
// namespace scope or in a function body) emits list elements: an unbraced
// body is one element up to its ',', and no iteration is a '{ }' block.
#include <string>

enum stage {
  @meta for (int i = 0; i < 3; ++i)
    @("stage_" + std::to_string(i)) = @(i * 10),
  stage_last
};

__constant__ int squares[] = {
  @meta for (int i = 0; i < 4; ++i)
    @(i * i),
};

__global__ void k(int* out) {
  int cubes[] = {
    @meta for (int i = 0; i < 4; ++i)
      @(i * i * i),
  };
  float2 pairs[] = {
    @meta for (int i = 1; i < 3; ++i) {
      {@(i * 0.5f), @(-i * 0.25f)},
    }
  };
  out[0] = squares[3] + cubes[2] + stage_2 + stage_last + int(pairs[1].y);
}
