// RUN: %check-golden %s -- --arch 75,90
// Config structs with C-array, std::array and nested array members are meta
// values; a whole array is spelled as a braced list, which initializes a
// declared array, an std::array or an array member.
#include <array>

struct tile_t { int rows; int cols; };
struct config_t {
  int threads;
  int unroll[3];
  std::array<short, 2> split;
  int grid[2][2];
  tile_t tiles[2];
  char tag[8];
};
// A pointer member has no spelling; the struct is still a meta value, and
// its spellable members may be used.
struct handle_t { int size; const int* data; };

@meta config_t cfg { 128, {1, 2, 4}, {3, 5}, {{6, 7}, {8, 9}}, {{16, 8}, {32, 4}}, "fast" };
@meta handle_t h { 64, nullptr };
@meta std::array<int, 4> steps { 1, 2, 4, 8 };

__global__ void k(int* out) {
  config_t c = cfg;
  int u[3] = cfg.unroll;
  std::array<int, 4> s = steps;
  // std::array has no __device__ operator[]; the value still initializes one.
  out[0] = c.threads + u[2] + int(sizeof(s)) + cfg.grid[1][0] + cfg.tiles[1].rows;
  out[1] = cfg.split[1] + h.size;
  const char* tag = cfg.tag;
  out[2] = tag[0];
}
