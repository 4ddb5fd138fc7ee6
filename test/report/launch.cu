// RUN: %metacu report %s --arch 80 --format json | FileCheck %s --check-prefix=UNKNOWN
// RUN: %metacu report %s --arch 80 | FileCheck %s --check-prefix=TEXT
// RUN: %metacu report %s --arch 80,90 --block 64x4 --format json | FileCheck %s
// RUN: not %metacu report %s --arch 80 --grid 100 2>&1 | FileCheck %s --check-prefix=NOBLOCK
// RUN: not %metacu report %s --arch 80 --block 0 2>&1 | FileCheck %s --check-prefix=BADBLOCK
// Occupancy, the model and diagnoses need a launch configuration; without
// one given, a kernel with __launch_bounds__ is taken to run blocks of its
// maximum and one without has null fields. __launch_bounds__(128) refuses
// 64x4 threads.
__global__ void __launch_bounds__(128) bounded(float* x) {
  x[threadIdx.x] *= 2.0f;
}

__global__ void scale(float* x, float a) {
  x[blockIdx.x * blockDim.x + threadIdx.x] *= a;
}

// UNKNOWN: "version": 1,
// UNKNOWN: "name": "bounded",
// UNKNOWN: "max_threads_per_block": 128,
// UNKNOWN-NEXT: "block": [
// UNKNOWN-NEXT: 128,
// UNKNOWN-NEXT: 1,
// UNKNOWN-NEXT: 1
// UNKNOWN-NEXT: ],
// UNKNOWN-NEXT: "threads_per_block": 128,
// UNKNOWN-NEXT: "dynamic_shared_bytes": 0,
// UNKNOWN-NEXT: "blocks_per_sm": 16,
// UNKNOWN: "launch_source": "launch_bounds"
// UNKNOWN: "name": "scale",
// UNKNOWN: "max_threads_per_block": null,
// UNKNOWN-NEXT: "block": null,
// UNKNOWN-NEXT: "threads_per_block": null,
// UNKNOWN-NEXT: "dynamic_shared_bytes": null,
// UNKNOWN-NEXT: "blocks_per_sm": null,
// UNKNOWN-NEXT: "occupancy": null,
// UNKNOWN-NEXT: "limiter": null,
// UNKNOWN: "predicted_time_us": null,
// UNKNOWN-NEXT: "model": null,
// UNKNOWN: "launch_source": null

// TEXT: launch configuration unknown (give --block)
// TEXT: block marked *: none given, the kernel's __launch_bounds__
// TEXT: bounded (_Z7boundedPf), __launch_bounds__ 128
// TEXT: sm_80 {{.*}} 128* {{ *}}16 {{ *}}100%
// TEXT: scale (_Z5scalePff)
// TEXT: sm_80 {{.*}} ? {{ *}}-

// CHECK: "name": "bounded",
// CHECK: "arch": 80,
// CHECK: "max_threads_per_block": 128,
// CHECK-NEXT: "block": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 4,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "threads_per_block": 256,
// CHECK-NEXT: "dynamic_shared_bytes": 0,
// CHECK-NEXT: "blocks_per_sm": 0,
// CHECK-NEXT: "occupancy": 0,
// CHECK-NEXT: "limiter": "cannot_launch",
// CHECK: "predicted_time_us": null,
// CHECK: "diagnoses": [
// CHECK-NEXT: "cannot launch: 64x4 threads exceed the kernel's __launch_bounds__ (128)"
// CHECK: "name": "bounded",
// CHECK: "arch": 90,
// CHECK: "name": "scale",
// CHECK: "arch": 80,
// CHECK: "blocks_per_sm": 8,
// CHECK-NEXT: "occupancy": 1,
// CHECK-NEXT: "limiter": "warps",
// CHECK: "predicted_time_us": {{[0-9.e+-]+}},
// CHECK-NEXT: "model": {
// CHECK-NEXT: "device": "A100 SXM4 80GB",
// CHECK-NEXT: "grid_blocks": 864,
// CHECK-NEXT: "grid_assumed": true,
// CHECK-NEXT: "waves": 1,

// NOBLOCK: metacu: error: --grid, --dynamic-smem and --smem-opt-in need --block
// BADBLOCK: metacu: error: '0' is no extent: write N, NxM or NxMxK

// One kernel's own launch (--launch KERNEL:BLOCK[:GRID]) wins over --block.
// RUN: %metacu report %s --arch 80 --block 64x4 --launch bounded:128:1000 --format json | FileCheck %s --check-prefix=PERKERNEL
// PERKERNEL: "name": "bounded",
// PERKERNEL: "threads_per_block": 128,
// PERKERNEL: "blocks_per_sm": 16,
// PERKERNEL: "grid_blocks": 1000,
// PERKERNEL-NEXT: "grid_assumed": false,
// PERKERNEL: "name": "scale",
// PERKERNEL: "threads_per_block": 256,
