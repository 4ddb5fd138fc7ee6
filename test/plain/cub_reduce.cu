// Plain CUDA (no meta constructs): a block-wide sum with cub.
#include <cub/block/block_reduce.cuh>

template <int Threads>
__global__ void block_sum(const float* in, float* out) {
  using Reduce = cub::BlockReduce<float, Threads>;
  __shared__ typename Reduce::TempStorage temp;
  float v = in[blockIdx.x * Threads + threadIdx.x];
  float s = Reduce(temp).Sum(v);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}

template __global__ void block_sum<128>(const float*, float*);
template __global__ void block_sum<256>(const float*, float*);
