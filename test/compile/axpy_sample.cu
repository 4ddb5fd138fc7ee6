// RUN: %metacu %S/../../samples/axpy/axpy.cu -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -I %S/../../samples/axpy -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: %nvcc -I %S/../../samples/axpy -ptx -arch=sm_90 %t.gen.cu -o %t.ptx
// RUN: FileCheck %s --check-prefix=X < %t.ptx
// RUN: FileCheck %s --check-prefix=Y < %t.ptx
// RUN: rm -rf %t.bundle
// RUN: %metacu tune %S/../../samples/axpy/axpy.cu --arch 90 --emit-bundle %t.bundle --strategy brute_force 2>&1 | FileCheck %s --check-prefix=BUNDLE
// RUN: %nvcc -O3 -std=c++17 -DMETACU_TUNE -gencode arch=compute_90,code=sm_90 -I %t.bundle/include %t.bundle/src/axpy/batch_0.cu -o %t.harness
// RUN: %nvcc -ptx -std=c++17 -DMETACU_TUNE -arch=sm_90 -I %t.bundle/include %t.bundle/src/axpy/batch_4.cu -o - | FileCheck %s --check-prefix=LAST
// The axpy sample builds for three architectures (the tuning space adds no
// kernel to an ordinary build), and its space's bundle holds all 288
// configurations (6 block sizes x 8 x 3 vector widths x 2), whose harness
// nvcc builds.
// sm_90's table entry: 512 threads x 8 floats of x (read-only: .nc) and of
// y, with plain loads (not vector, not streaming), in the one kernel before
// the tail's.
// X-LABEL: .entry _Z4axpyfPKfPf(
// X-COUNT-8: ld.global.nc.f32
// X-NOT: ld.global.nc
// X: .entry {{.*}}axpy_tail
// Y-LABEL: .entry _Z4axpyfPKfPf(
// Y-COUNT-8: ld.global.f32
// Y-NOT: ld.global.f32
// Y: .entry {{.*}}axpy_tail
// BUNDLE: 288 candidates of axpy (288 valid configurations)
// The last candidate, 1024 threads x 16 float4 with streaming hints:
// 32 float4 loads evicting first.
// LAST-LABEL: .entry _Z13axpy_tune_287fPKfPf(
// LAST-COUNT-32: ld.global.cs.v4.f32
// LAST-NOT: ld.global
// LAST: .entry {{.*}}axpy_tail
