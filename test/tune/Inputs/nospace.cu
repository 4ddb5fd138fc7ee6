// A kernel without a tuning space, for metacu tune's error.
__global__ void k(float *x) { x[threadIdx.x] = @(2 * 3); }
