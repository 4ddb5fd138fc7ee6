#ifndef HEADER_UNBALANCED_CUH
#define HEADER_UNBALANCED_CUH

__global__ void k(int* x) {
  @meta for (int i = 0; i < 4; ++i]
    x[i] = @(i);
}
#endif
