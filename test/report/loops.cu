// RUN: %metacu report %s --arch 90 --launch tiled:128:64 --launch strided:256:32 --launch chase:64:8 | FileCheck %s
// RUN: %metacu report %s --arch 90 --launch tiled:128:64 --launch strided:256:32 --launch chase:64:8 --format json | FileCheck %s --check-prefix=JSON
// RUN: %metacu report %s --arch 90 --launch strided:256:32:_,_,1048576 --format json | FileCheck %s --check-prefix=GIVEN
// RUN: not %metacu report %s --arch 90 --launch strided:256:32:_,_,n 2>&1 | FileCheck %s --check-prefix=BAD
// A loop nvcc keeps (not unrolled: the trip counts are too large or not
// known at compile time) counts once per pass where its PTX gives the trip
// count: a constant, or one from the launch and the parameters (made up:
// said so, or given with --launch's ARGS); a loop that ends on a loaded value counts once and is named
// (was: every loop counted once, "has a loop: counts are per iteration").
__global__ void tiled(float* out, const float* in) {
  float sum = 0.0f;
#pragma unroll 1
  for (int k = 0; k < 4096; k += 32)
    sum += in[k + threadIdx.x];
  out[threadIdx.x] = sum;
}

__global__ void strided(float* out, const float* in, int n) {
  float sum = 0.0f;
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    sum += in[i];
  out[blockIdx.x * 256 + threadIdx.x] = sum;
}

__global__ void chase(unsigned* out, const unsigned* next) {
  unsigned i = threadIdx.x, steps = 0;
  while ((i = next[i]) != 0)
    ++steps;
  out[threadIdx.x] = steps;
}
// CHECK-LABEL: tiled (
// CHECK-NOT: lower bound
// CHECK-LABEL: strided (
// CHECK: sm_90: the trip count of a loop ({{.*}}) reads the kernel's parameters, whose values the model makes up
// CHECK-LABEL: chase (
// CHECK: sm_90: has a loop whose trip count the PTX does not give ({{.*}}): counted once, the predicted time a lower bound

// 4096 / 32 passes; the grid-stride loop: n, the third parameter loaded,
// is made up as 2^20 + 8192, and a thread t of the middle block (16 of 32)
// makes (n - (16 * 256 + t)) / (32 * 256) passes rounded up, 129.
// JSON-LABEL: "name": "tiled"
// JSON: "lower_bound": false,
// JSON-NEXT: "loops": [
// JSON-NEXT: {
// JSON-NEXT: "label": "$L__BB0_1",
// JSON-NEXT: "trips": 128
// JSON-LABEL: "name": "strided"
// JSON: "lower_bound": false,
// JSON-NEXT: "loops": [
// JSON-NEXT: {
// JSON-NEXT: "label": "{{.*}}",
// JSON-NEXT: "trips": 129
// JSON-LABEL: "name": "chase"
// JSON: "lower_bound": true,
// JSON-NEXT: "loops": [
// JSON-NEXT: {
// JSON-NEXT: "label": "{{.*}}",
// JSON-NEXT: "trips": null

// n given, 2^20: (2^20 - (16 * 256 + t)) / 8192 rounded up, 128 passes,
// and no made-up value to speak of.
// GIVEN-LABEL: "name": "strided"
// GIVEN-NOT: makes up
// GIVEN: "loops": [
// GIVEN-NEXT: {
// GIVEN-NEXT: "label": "{{.*}}",
// GIVEN-NEXT: "trips": 128
// BAD: metacu: error: --launch strided:256:32:_,_,n: 'n': an argument is an integer or _
