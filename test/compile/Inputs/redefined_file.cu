#define __FILE__ 1
__global__ void k(int *p) { *p = __FILE__; }
