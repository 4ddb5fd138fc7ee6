// Plain CUDA: cooperative groups, a warp tile reduction, and cuda::std.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda/std/limits>

namespace cg = cooperative_groups;

__global__ void warp_max(const int* in, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = in[block.thread_rank()];
  int m = cg::reduce(warp, v, cg::greater<int>());
  if (warp.thread_rank() == 0)
    atomicMax(out, m > cuda::std::numeric_limits<int>::max() / 2 ? 0 : m);
}
