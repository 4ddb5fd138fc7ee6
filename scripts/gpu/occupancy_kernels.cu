// Kernels that spread over the occupancy rules, for scripts/gpu-occupancy:
// register pressure from a few to ptxas's cap, static shared memory from none
// to the 48 KiB static limit (odd sizes test the allocation granularity),
// named barriers (a limit from sm_90 on) and launch bounds. One generated
// kernel per combination; their names say what they stress.
#include <string>

// `live` values are loaded, mixed in a loop of run-time length and summed, so
// all of them stay live across the loop's back edge: about `live` registers
// (past what ptxas may give, spills, which is a case worth having too).
@meta for (int live : {2, 24, 64, 128, 220}) {
  @meta for (int smem : {0, 100, 4096, 12345, 30000, 49152}) {
__global__ void @("regs" + std::to_string(live) + "_smem" + std::to_string(smem))(
    const float* __restrict__ in, float* __restrict__ out, int rounds) {
  float v[@(live)];
  @meta for (int i = 0; i < live; ++i)
    v[@(i)] = in[threadIdx.x + @(i * 1024)];
  for (int round = 0; round < rounds; ++round)
    @meta for (int i = 0; i < live; ++i)
      v[@(i)] = fmaf(v[@(i)], v[@((i + 1) % live)], 0.5f);
  float sum = 0.0f;
  @meta for (int i = 0; i < live; ++i)
    sum += v[@(i)];
  @meta if (smem > 0) {
    __shared__ unsigned char stage[@(smem)];
    stage[threadIdx.x % @(smem)] = (unsigned char)sum;
    __syncthreads();
    sum += stage[(threadIdx.x * 7) % @(smem)];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}
  }
}

// Named barriers: ptxas counts barrier ids up to the highest used.
@meta for (int id : {1, 5, 15}) {
__global__ void @("barriers" + std::to_string(id + 1))(float* out) {
  asm volatile("bar.sync %0;" ::"n"(@(id)));
  out[threadIdx.x] += 1.0f;
}
}

// Launch bounds cap the block (and, with a minimum, the registers).
__global__ void __launch_bounds__(256) bounded256(float* out) { out[threadIdx.x] *= 2.0f; }
__global__ void __launch_bounds__(128, 8) bounded128x8(const float* __restrict__ in, float* out) {
  float v[@(48)];
  @meta for (int i = 0; i < 48; ++i)
    v[@(i)] = in[threadIdx.x + @(i * 512)];
  float s = 0;
  @meta for (int i = 0; i < 48; ++i)
    s = fmaf(s, v[@(i)], v[@((i * 5) % 48)]);
  out[threadIdx.x] = s;
}
