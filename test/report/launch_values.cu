// RUN: not %metacu report %s --arch 80 --block 135984x74342x1824726041 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not %metacu report %s --arch 80 --block 64 --grid 2147483648 2>&1 | FileCheck %s --check-prefix=GRID
// RUN: not %metacu report %s --arch 80 --block 64 --dynamic-smem 18446744073709551615 2>&1 | FileCheck %s --check-prefix=SMEM
// RUN: not %metacu report %s --arch 80 --launch nosuch:64 2>&1 | FileCheck %s --check-prefix=LAUNCH -DFILE=%s
// The launch is checked against CUDA's limits (the block's product wrapped
// to 32 threads, the dynamic size to a small one), and --launch must name
// a kernel of the file (it was ignored).
__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }
// BLOCK: metacu: error: '135984x74342x1824726041' is larger than CUDA allows: at most 1024x1024x64
// GRID: metacu: error: '2147483648' is larger than CUDA allows: at most 2147483647x65535x65535
// SMEM: metacu: error: --dynamic-smem 18446744073709551615: a launch takes at most 4294967295 bytes
// LAUNCH: metacu: error: --launch nosuch: [[FILE]] has no kernel of that name (its kernels: scale)
