// A write past the file size limit (a disk that fills, simulated by
// ulimit -f) is an error naming the file, not a crash; nothing is written
// and a file migrated in place is left whole.
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/in.cu && cp %s %t/orig.cu
// RUN: not %python -c "import os, resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)); os.execv(sys.argv[1], sys.argv[1:])" %metacu %t/in.cu -o %t/out.cu --arch 80 2> %t/expand.err
// RUN: FileCheck %s < %t/expand.err
// RUN: not test -e %t/out.cu
// RUN: cd %t && not %python -c "import os, resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024)); os.execv(sys.argv[1], sys.argv[1:])" %metacu migrate --in-place in.cu 2> %t/migrate.err
// RUN: FileCheck %s < %t/migrate.err
// RUN: cmp %t/orig.cu %t/in.cu
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// CHECK: error: cannot write '{{.*}}': File too large
// CHECK-NOT: PLEASE submit
// FILES-NOT: tmp
//
// Text that makes the output larger than the limit: xxxxxxxxxxxxxxxxxxxxxx
// xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
// xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
// xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
// xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
// xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
__device__ int twice(int x) {
#if __CUDA_ARCH__ >= 800
  x *= 2;
#else
  x += x;
#endif
  return x;
}
__global__ void k(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
