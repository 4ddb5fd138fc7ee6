// RUN: %metacu %S/../../samples/stencil/stencil.cu -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -I %S/../../samples/stencil -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: %nvcc -I %S/../../samples/stencil -ptx -arch=sm_75 %t.gen.cu -o %t.75.ptx
// RUN: FileCheck %s --check-prefix=P75 < %t.75.ptx
// RUN: FileCheck %s --check-prefix=S75 < %t.75.ptx
// RUN: %nvcc -I %S/../../samples/stencil -ptx -arch=sm_90 %t.gen.cu -o %t.90.ptx
// RUN: FileCheck %s --check-prefix=P90 < %t.90.ptx
// RUN: FileCheck %s --check-prefix=S90 < %t.90.ptx
// RUN: rm -rf %t.bundle
// RUN: %metacu tune %S/../../samples/stencil/stencil.cu --arch 90 --emit-bundle %t.bundle --strategy brute_force 2>&1 | FileCheck %s --check-prefix=BUNDLE
// RUN: %nvcc -O3 -std=c++17 -DMETACU_TUNE -gencode arch=compute_90,code=sm_90 -I %t.bundle/include %t.bundle/src/stencil/batch_0.cu -o %t.harness
// RUN: %nvcc -ptx -std=c++17 -DMETACU_TUNE -arch=sm_90 -I %t.bundle/include %t.bundle/src/stencil/batch_0.cu -o - | FileCheck %s --check-prefix=FIRST
// RUN: %nvcc -ptx -std=c++17 -DMETACU_TUNE -arch=sm_90 -I %t.bundle/include %t.bundle/src/stencil/batch_2.cu -o %t.last.ptx
// RUN: FileCheck %s --check-prefix=LAST < %t.last.ptx
// RUN: FileCheck %s --check-prefix=LASTST < %t.last.ptx
// The stencil sample builds for three architectures (the tuning space adds
// no kernel to an ordinary build), and its space's bundle holds its 190
// valid configurations, whose harness nvcc builds.
//
// Each image's kernel is its table entry's straight-line code: the staging
// loads (read-only: .nc) with no branch among them but the one bounds check
// of the last round, when the window is not a multiple of the block; one
// barrier; then tile_y + 4 shared-memory loads for the thread's column and
// 4 per output for its row (the column's values stay in registers), and
// tile_y stores (among those loads: counted on their own).
// sm_75: 64 x 4 threads x 4 rows, a 68 x 20 window: 5 full rounds of 256
// and 80 floats.
// P75-LABEL: .entry _Z7stencilPKfiPfi(
// P75-NOT: $L__
// P75-COUNT-5: ld.global.nc.f32
// P75-NOT: ld.global
// P75: @%p{{[0-9]+}} bra
// P75-COUNT-1: ld.global.nc.f32
// P75-NOT: ld.global
// P75: bar.sync
// P75-NOT: ld.global
// P75-NOT: bar.sync
// P75-COUNT-24: ld.shared.f32
// P75-NOT: ld.shared
// P75-NOT: $L__
// P75: ret;
// S75-LABEL: .entry _Z7stencilPKfiPfi(
// S75-COUNT-4: st.global.f32
// S75-NOT: st.global
// sm_90: 128 x 4 threads x 8 rows, a 132 x 36 window: 9 full rounds of 512
// and 144 floats.
// P90-LABEL: .entry _Z7stencilPKfiPfi(
// P90-NOT: $L__
// P90-COUNT-9: ld.global.nc.f32
// P90-NOT: ld.global
// P90: @%p{{[0-9]+}} bra
// P90-COUNT-1: ld.global.nc.f32
// P90-NOT: ld.global
// P90: bar.sync
// P90-NOT: ld.global
// P90-NOT: bar.sync
// P90-COUNT-44: ld.shared.f32
// P90-NOT: ld.shared
// P90-NOT: $L__
// P90: ret;
// S90-LABEL: .entry _Z7stencilPKfiPfi(
// S90-COUNT-8: st.global.f32
// S90-NOT: st.global
// BUNDLE: 190 candidates of stencil (190 valid configurations)
// The first candidate, 16 x 2 threads x 1 row: a 20 x 6 window, 3 full
// rounds of 32 and 24 floats; 9 shared-memory loads, one output.
// FIRST-LABEL: .entry _Z14stencil_tune_0PKfiPfi(
// FIRST-NOT: $L__
// FIRST-COUNT-3: ld.global.nc.f32
// FIRST-NOT: ld.global
// FIRST: @%p{{[0-9]+}} bra
// FIRST-COUNT-1: ld.global.nc.f32
// FIRST-NOT: ld.global
// FIRST: bar.sync
// FIRST-COUNT-9: ld.shared.f32
// FIRST-NOT: ld.shared
// FIRST-COUNT-1: st.global.f32
// FIRST-NOT: st.global
// FIRST: ret;
// 32 x 1 threads x 4 rows: a 36 x 8 window, 9 full rounds of 32 and
// nothing left, so no branch at all.
// FIRST-LABEL: .entry _Z15stencil_tune_43PKfiPfi(
// FIRST-NOT: $L__
// FIRST-NOT: bra
// FIRST-COUNT-9: ld.global.nc.f32
// FIRST-NOT: ld.global
// FIRST: bar.sync
// FIRST-NOT: bra
// FIRST-COUNT-4: st.global.f32
// FIRST-NOT: st.global
// FIRST: ret;
// The last, 512 x 2 threads x 8 rows: a 516 x 20 window, 10 full rounds of
// 1024 and 80 floats; 44 shared-memory loads and 8 stores.
// LAST-LABEL: .entry _Z16stencil_tune_189PKfiPfi(
// LAST-NOT: $L__
// LAST-COUNT-10: ld.global.nc.f32
// LAST-NOT: ld.global
// LAST: @%p{{[0-9]+}} bra
// LAST-COUNT-1: ld.global.nc.f32
// LAST-NOT: ld.global
// LAST: bar.sync
// LAST-COUNT-44: ld.shared.f32
// LAST-NOT: ld.shared
// LAST: ret;
// LASTST-LABEL: .entry _Z16stencil_tune_189PKfiPfi(
// LASTST-COUNT-8: st.global.f32
// LASTST-NOT: st.global
// LASTST: ret;
