// RUN: %metacu %S/../../samples/block_sum/block_sum.cu -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -I %S/../../samples/block_sum -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: %nvcc -I %S/../../samples/block_sum -ptx -arch=sm_75 %t.gen.cu -o - | FileCheck %s --check-prefix=P75
// RUN: %nvcc -I %S/../../samples/block_sum -ptx -arch=sm_80 %t.gen.cu -o - | FileCheck %s --check-prefix=P80
// RUN: %nvcc -I %S/../../samples/block_sum -ptx -arch=sm_90 %t.gen.cu -o - | FileCheck %s --check-prefix=P90
// RUN: rm -rf %t.bundle
// RUN: %metacu tune %S/../../samples/block_sum/block_sum.cu --arch 90 --emit-bundle %t.bundle --strategy brute_force 2>&1 | FileCheck %s --check-prefix=BUNDLE
// RUN: %nvcc -O3 -std=c++17 -DMETACU_TUNE -gencode arch=compute_90,code=sm_90 -I %t.bundle/include %t.bundle/src/block_sum/batch_0.cu -o %t.harness
// RUN: %nvcc -ptx -std=c++17 -DMETACU_TUNE -arch=sm_90 -I %t.bundle/include %t.bundle/src/block_sum/batch_0.cu -o - | FileCheck %s --check-prefix=FIRST
// RUN: %nvcc -ptx -std=c++17 -DMETACU_TUNE -arch=sm_90 -I %t.bundle/include %t.bundle/src/block_sum/batch_2.cu -o - | FileCheck %s --check-prefix=LAST
// The block sum sample builds for three architectures (the tuning space
// adds no kernel to an ordinary build), and its space's bundle holds all
// 144 configurations (6 block sizes x 8 x 3 vector widths), whose harness
// nvcc builds.
//
// Each image's kernel is its table entry's straight-line code: no label
// (so no loop) before its loads, all of them (read-only: .nc) before the
// first shuffle, a 5-step shuffle tree per warp, one barrier, and a tree
// over the warps' sums as deep as the block has warps (8 or 16), before the
// one-block kernel of the tail and the second pass.
// sm_75: 256 threads x 8 unsigned.
// P75-LABEL: .entry _Z9block_sumPKjPj(
// P75-NOT: $L__
// P75-COUNT-8: ld.global.nc.u32
// P75-NOT: $L__
// P75-NOT: ld.global
// P75-COUNT-5: shfl.sync.down
// P75-NOT: shfl
// P75: bar.sync
// P75-COUNT-3: shfl.sync.down
// P75-NOT: shfl
// P75-NOT: ld.global
// P75: .entry {{.*}}block_sum_one_block
// sm_80: 256 threads x 4 uint4.
// P80-LABEL: .entry _Z9block_sumPKjPj(
// P80-NOT: $L__
// P80-COUNT-4: ld.global.nc.v4.u32
// P80-NOT: $L__
// P80-NOT: ld.global
// P80-COUNT-5: shfl.sync.down
// P80-NOT: shfl
// P80: bar.sync
// P80-COUNT-3: shfl.sync.down
// P80-NOT: shfl
// P80-NOT: ld.global
// P80: .entry {{.*}}block_sum_one_block
// sm_90: 512 threads x 4 uint4.
// P90-LABEL: .entry _Z9block_sumPKjPj(
// P90-NOT: $L__
// P90-COUNT-4: ld.global.nc.v4.u32
// P90-NOT: $L__
// P90-NOT: ld.global
// P90-COUNT-5: shfl.sync.down
// P90-NOT: shfl
// P90: bar.sync
// P90-COUNT-4: shfl.sync.down
// P90-NOT: shfl
// P90-NOT: ld.global
// P90: .entry {{.*}}block_sum_one_block
// BUNDLE: 144 candidates of block_sum (144 valid configurations)
// The first candidate, one warp of one unsigned each: one load, one tree,
// no shared memory and no barrier.
// FIRST-LABEL: .entry _Z16block_sum_tune_0PKjPj(
// FIRST-NOT: .shared
// FIRST-COUNT-1: ld.global.nc.u32
// FIRST-NOT: ld.global
// FIRST-COUNT-5: shfl.sync.down
// FIRST-NOT: shfl
// FIRST-NOT: bar.sync
// FIRST: .entry _Z16block_sum_tune_1PKjPj(
// The last, 1024 threads x 16 uint4: 16 loads, then trees over 32 lanes
// and 32 warps.
// LAST-LABEL: .entry _Z18block_sum_tune_143PKjPj(
// LAST-NOT: $L__
// LAST-COUNT-16: ld.global.nc.v4.u32
// LAST-NOT: $L__
// LAST-NOT: ld.global
// LAST-COUNT-5: shfl.sync.down
// LAST-NOT: shfl
// LAST: bar.sync
// LAST-COUNT-5: shfl.sync.down
// LAST-NOT: shfl
// LAST-NOT: ld.global
// LAST: .entry {{.*}}block_sum_one_block
