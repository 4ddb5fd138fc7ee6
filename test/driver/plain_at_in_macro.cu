// RUN: %metacu %s -o %t.gen.cu --arch 80
// A macro whose body holds an '@' that starts no meta construct is nvcc's
// (it accepts the definition while no code uses it): it stays, and the
// '#ifdef' that tests it still sees it, so the kernel is still there.
// RUN: sed '1,/^#line 1 /d' %t.gen.cu | diff - %s
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .entry {{.*}}kernel_kept
#define PREDICATED(p) @p
#ifdef PREDICATED
__global__ void kernel_kept(int *out) { out[0] = 1; }
#endif
