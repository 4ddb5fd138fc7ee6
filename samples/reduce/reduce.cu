// reduce: block reductions generated from an enum.
//
// The operators are the enumerators of reduce_op. A meta function gives
// each its combining expression and identity; `@meta for enum` stamps out,
// per operator, a combine function named with metacu::enum_name (a splice
// builds the identifier and the expression) and a reduction kernel, and
// fills the host's table of kernels. Adding an operator is one enumerator
// and one case. Inside the kernels the loads and the warp-shuffle tree are
// unrolled at generation time.
//
//   reduce [n]    (default 2^26 values)
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <metacu/runtime.h>

#include "../common/sample.h"

enum class reduce_op { sum, min, max, bit_or, bit_xor };

@meta struct op_info {
  std::string combine; // an expression in a and b
  unsigned identity;
};

@meta op_info info(reduce_op op) {
  switch (op) {
  case reduce_op::sum: return {"a + b", 0u};
  case reduce_op::min: return {"a < b ? a : b", ~0u};
  case reduce_op::max: return {"a > b ? a : b", 0u};
  case reduce_op::bit_or: return {"a | b", 0u};
  case reduce_op::bit_xor: return {"a ^ b", 0u};
  }
  metacu::fail("reduce_op without a combining expression");
}

@meta int nt = 256; // threads per block
@meta int vt = 8;   // loads per thread in flight

@meta for enum (auto op : reduce_op) {
@meta std::string name = metacu::enum_name(op);
@meta op_info o = info(op);

__device__ __forceinline__ unsigned @("combine_" + name)(unsigned a, unsigned b) {
  return @(o.combine);
}

// One partial result per block in out[blockIdx.x].
__global__ void __launch_bounds__(nt) @("reduce_" + name)(const unsigned* __restrict__ in,
                                                          unsigned* __restrict__ out, size_t n) {
  unsigned acc = o.identity;
  size_t i = size_t(blockIdx.x) * @(nt * vt) + threadIdx.x;
  const size_t stride = size_t(gridDim.x) * @(nt * vt);
  for (; i + @((vt - 1) * nt) < n; i += stride) {
    unsigned v[vt];
    @meta for (int k = 0; k < vt; ++k)
      v[k] = in[i + k * nt];
    @meta for (int k = 0; k < vt; ++k)
      acc = @("combine_" + name)(acc, v[k]);
  }
  // At most one partial tile is left for this thread.
  @meta for (int k = 0; k < vt - 1; ++k)
    if (i + k * nt < n)
      acc = @("combine_" + name)(acc, in[i + k * nt]);

  @meta for (int offset = 16; offset > 0; offset /= 2)
    acc = @("combine_" + name)(acc, __shfl_down_sync(0xffffffffu, acc, offset));
  __shared__ unsigned warp_results[nt / 32];
  if (threadIdx.x % 32 == 0)
    warp_results[threadIdx.x / 32] = acc;
  __syncthreads();
  if (threadIdx.x < 32) {
    acc = threadIdx.x < @(nt / 32) ? warp_results[threadIdx.x] : o.identity;
    @meta for (int offset = 16; offset > 0; offset /= 2)
      acc = @("combine_" + name)(acc, __shfl_down_sync(0xffffffffu, acc, offset));
    if (threadIdx.x == 0)
      out[blockIdx.x] = acc;
  }
}
}

struct reduce_kernel {
  reduce_op op;
  const char* name;
  void (*kernel)(const unsigned*, unsigned*, size_t);
};

const reduce_kernel reduce_kernels[] = {
  @meta for enum (auto op : reduce_op) {
    @meta std::string name = metacu::enum_name(op);
    {@(op), name, @("reduce_" + name)},
  }
};

// The CPU's answer, written independently of the generated code.
static unsigned reference(reduce_op op, const std::vector<unsigned>& v) {
  unsigned r = op == reduce_op::min ? ~0u : 0u;
  for (unsigned x : v) {
    switch (op) {
    case reduce_op::sum: r += x; break;
    case reduce_op::min: r = x < r ? x : r; break;
    case reduce_op::max: r = x > r ? x : r; break;
    case reduce_op::bit_or: r |= x; break;
    case reduce_op::bit_xor: r ^= x; break;
    }
  }
  return r;
}

int main(int argc, char** argv) {
  size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t(1) << 26);
  std::vector<unsigned> data(n);
  unsigned state = 12345u;
  for (unsigned& x : data) {
    state = state * 1664525u + 1013904223u;
    x = (state >> 8) | 0x100u; // neither min nor or is trivially 0 or ~0
  }

  int device = 0, sms = 0;
  METACU_CHECK(cudaGetDevice(&device));
  METACU_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const size_t per_block = nt * vt;
  unsigned blocks = unsigned(std::min((n + per_block - 1) / per_block, size_t(sms) * 8));

  unsigned *din = nullptr, *dpartial = nullptr;
  METACU_CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
  METACU_CHECK(cudaMalloc(&dpartial, (blocks + 1) * sizeof(unsigned)));
  METACU_CHECK(cudaMemcpy(din, data.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));

  int failures = 0;
  for (const reduce_kernel& k : reduce_kernels) {
    auto run = [&] {
      k.kernel<<<blocks, nt>>>(din, dpartial, n);
      k.kernel<<<1, nt>>>(dpartial, dpartial + blocks, blocks);
    };
    run();
    METACU_CHECK(cudaGetLastError());
    unsigned got = 0;
    METACU_CHECK(cudaMemcpy(&got, dpartial + blocks, sizeof(unsigned), cudaMemcpyDeviceToHost));
    unsigned want = reference(k.op, data);
    failures += got != want;
    float ms = median_ms(run);
    double gbs = n * sizeof(unsigned) / (ms * 1e6);
    std::printf("reduce: %-8s n=%zu: 0x%08x (CPU 0x%08x) %s, %.3f ms, %.1f GB/s\n", k.name, n,
                got, want, got == want ? "ok" : "MISMATCH", ms, gbs);
    std::printf("row|reduce|%s|%.0f GB/s|%s\n", k.name, gbs,
                got == want ? "matches CPU" : "MISMATCH");
  }
  METACU_CHECK(cudaFree(din));
  METACU_CHECK(cudaFree(dpartial));
  return failures ? 1 : 0;
}
