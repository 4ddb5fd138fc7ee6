// No meta constructs: clangd reads it as it is (test/lsp/test_lsp.py).
__global__ void fill(float* out, float value) {
  out[threadIdx.x] = value + undeclared_name;
}
