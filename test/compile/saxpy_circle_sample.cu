// RUN: %metacu %S/../../samples/saxpy_circle/saxpy_circle.cu -o %t.gen.cu --arch 75,80,90
// RUN: %nvcc -c -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 %t.gen.cu -o %t.o
// RUN: FileCheck %s --input-file %t.gen.cu
// RUN: %nvcc -ptx -arch=sm_90 %t.gen.cu -o - | FileCheck %s --check-prefix=PTX90
// The saxpy sample (Circle's kernel-launch article, ported) expands and
// builds host and device code for three architectures, each image with its
// own parameters from the one table.
// CHECK: template <int nt, int vt, class T>
// CHECK-NEXT: __host__ __device__ void saxpy_thread(
// CHECK: __CUDA_ARCH__ == 750
// CHECK: saxpy_thread<128, 4>(a, x, y, first, n);
// CHECK: __CUDA_ARCH__ == 800
// CHECK: saxpy_thread<256, 8>(a, x, y, first, n);
// CHECK: __CUDA_ARCH__ == 900
// CHECK: saxpy_thread<256, 12>(a, x, y, first, n);
// sm_90: 12 values of x and 12 of y loaded by each thread.
// PTX90-COUNT-24: ld.global
// PTX90-NOT: ld.global
