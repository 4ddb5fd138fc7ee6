// Includes metacu's copy library, a dialect header of metacu's runtime.
#include <metacu/dma.cuh>
__global__ void k(int* x) { x[0] = @(1 + 1); }
