// RUN: %metacu report %s --arch 80 --format json | FileCheck %s
// RUN: %metacu report %S/../../samples/staged_loads/staged_loads.cu --arch 80 --format json | FileCheck %s --check-prefix=SAMPLE
// Per-thread counts from the PTX of the generated file. Staging a tile with
// generation-time constants: eight 4-byte loads and shared stores, eight
// shared loads and adds, one store, no branch.
@meta int nt = 128;
@meta int vt = 8;

__global__ void stage(const float* __restrict__ in, float* __restrict__ out) {
  __shared__ float tile[nt * vt];
  int base = blockIdx.x * (nt * vt) + threadIdx.x;
  @meta for (int i = 0; i < vt; ++i)
    tile[threadIdx.x + i * nt] = in[base + i * nt];
  __syncthreads();
  float sum = in[0];
  @meta for (int i = 0; i < vt; ++i)
    sum = fmaf(sum, 0.5f, tile[(threadIdx.x * vt + i) % (nt * vt)]);
  out[blockIdx.x * nt + threadIdx.x] = sum;
}
// CHECK: "name": "stage",
// CHECK: "per_thread": {
// CHECK-NEXT: "instructions": {{[0-9]+}},
// CHECK-NEXT: "global_load_instructions": 9,
// CHECK-NEXT: "global_load_bytes": 36,
// CHECK-NEXT: "global_store_instructions": 1,
// CHECK-NEXT: "global_store_bytes": 4,
// CHECK-NEXT: "shared_load_instructions": 8,
// CHECK-NEXT: "shared_load_bytes": 32,
// CHECK-NEXT: "shared_store_instructions": 8,
// CHECK-NEXT: "shared_store_bytes": 32,
// CHECK-NEXT: "local_instructions": 0,
// CHECK-NEXT: "local_bytes": 0,
// CHECK-NEXT: "flops_f16": 0,
// CHECK-NEXT: "flops_f32": 16,
// CHECK-NEXT: "flops_f64": 0,
// CHECK-NEXT: "fp_instructions_f16": 0,
// CHECK-NEXT: "fp_instructions_f32": 8,
// CHECK-NEXT: "fp_instructions_f64": 0,
// CHECK-NEXT: "branches": 0,
// CHECK-NEXT: "has_loop": false

// The sample: four loads in straight-line code and a fifth, the halo's,
// behind the one bounds check metacu emits; 17 shared loads and adds and a
// multiply per output, four outputs. The template version checks every
// load.
// SAMPLE: "name": "stencil_meta",
// SAMPLE: "per_thread": {
// SAMPLE-NEXT: "instructions": {{[0-9]+}},
// SAMPLE-NEXT: "global_load_instructions": 5,
// SAMPLE-NEXT: "global_load_bytes": 20,
// SAMPLE-NEXT: "global_store_instructions": 4,
// SAMPLE-NEXT: "global_store_bytes": 16,
// SAMPLE-NEXT: "shared_load_instructions": 68,
// SAMPLE-NEXT: "shared_load_bytes": 272,
// SAMPLE-NEXT: "shared_store_instructions": 5,
// SAMPLE-NEXT: "shared_store_bytes": 20,
// SAMPLE: "flops_f32": 72,
// SAMPLE: "branches": 1,
// SAMPLE-NEXT: "has_loop": false
// SAMPLE: "name": "stencil_template",
// SAMPLE: "global_load_instructions": 5,
// SAMPLE: "branches": 5,
// SAMPLE-NEXT: "has_loop": false
