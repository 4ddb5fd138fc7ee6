// RUN: %metacu report %s --arch 80 --block 128 | FileCheck %s
// RUN: %metacu report %s --arch 80 --block 128 --format json | FileCheck %s --check-prefix=JSON
// A device function nvcc does not inline is counted in the kernel that
// calls it, once per call site (was: left out of the counts, unnamed); a
// recursive one is named, its calls to itself said not to be counted.
__device__ __noinline__ float twice(float x) { return x * 2.0f; }

__device__ unsigned depth(const unsigned* child, unsigned i) {
  return i == 0 ? 0
                : 1 + max(depth(child, child[2 * i]),
                          depth(child, child[2 * i + 1]));
}

__global__ void calls(float* a, const unsigned* child, unsigned* out) {
  a[threadIdx.x] = twice(a[threadIdx.x]) + twice(a[threadIdx.x + 128]);
  out[threadIdx.x] = depth(child, threadIdx.x);
}
// CHECK-LABEL: calls (_Z5callsPfPKjPj)
// CHECK: sm_80: calls twice(float), depth(unsigned int const*, unsigned int) (not inlined): counted in, once per call site
// ptxas lists depth's frame apart; the kernel's line has none of it.
// CHECK: sm_80: calls depth(unsigned int const*, unsigned int), which {{spills|keeps a}}
// CHECK: sm_80: calls depth(unsigned int const*, unsigned int) recursively: its body is counted once, not its calls to itself; the predicted time a lower bound
// The kernel's two loads and depth's two; the kernel's add and twice's
// multiply at each of its two calls (without the callees: 2 and 1).
// JSON: "global_load_instructions": 4,
// JSON: "flops_f32": 3,
// JSON: "calls": [
// JSON-NEXT: "_Z5twicef",
// JSON-NEXT: "_Z5depthPKjj"
// JSON-NEXT: ],
// JSON-NEXT: "uncounted_calls": [
// JSON-NEXT: {
// JSON-NEXT: "callee": "_Z5depthPKjj",
// JSON-NEXT: "why": "recursive"
