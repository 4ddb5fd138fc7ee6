// RUN: rm -rf %t && mkdir -p %t
// CUDA 13 keeps CCCL (cub, thrust, libcu++'s cuda/std) under include/cccl,
// which nvcc adds by itself (nvcc.profile): metacu reads such files as nvcc
// does. audit finds the site, metacu expands the file, nvcc compiles it.
// RUN: %metacu audit %s | FileCheck %s --check-prefix=AUDIT
// RUN: %metacu %s -o %t/k.gen.cu --arch 80
// RUN: %nvcc -ptx -arch=sm_80 %t/k.gen.cu -o - | FileCheck %s --check-prefix=PTX
#include <cuda/std/type_traits>
#include <cub/block/block_reduce.cuh>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;
constexpr int threads = 128;

__global__ void block_sum(const float *in, float *out) {
  using Reduce = cub::BlockReduce<float, threads>;
  __shared__ typename Reduce::TempStorage tmp;
  static_assert(cuda::std::is_same_v<decltype(threads), const int>);
  float v = 0.0f;
  @meta for (int i = 0; i < 4; ++i)
    v += in[(blockIdx.x * 4 + i) * threads + threadIdx.x];
  float s = Reduce(tmp).Sum(v);
#if __CUDA_ARCH__ >= 800
  cg::this_thread_block().sync();
#endif
  if (threadIdx.x == 0)
    out[blockIdx.x] = s;
}
// AUDIT: 23-25 statement conditional #if __CUDA_ARCH__ >= 800
// AUDIT: summary: 1 site: 1 statement in 1 file
// PTX: .entry {{.*}}block_sum
// PTX-COUNT-4: ld.global.f32
