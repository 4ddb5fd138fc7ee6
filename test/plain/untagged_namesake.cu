// Plain CUDA: device code calls cooperative groups' reduce, and the file
// has a host function template of that name, which calls an extern "C"
// helper and launches the kernel. nvcc accepts it: metacu changes nothing.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

extern "C" bool isPow2(unsigned int x) { return (x & (x - 1)) == 0; }

__global__ void warp_sum(const int *in, int *out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int v = cg::reduce(warp, in[block.thread_rank()], cg::plus<int>());
  if (warp.thread_rank() == 0)
    atomicAdd(out, v);
}

template <class T> void reduce(int n, const T *in, T *out) {
  if (!isPow2(n))
    return;
  warp_sum<<<1, n>>>(in, out);
}

int main() {
  reduce<int>(64, nullptr, nullptr);
  return 0;
}
