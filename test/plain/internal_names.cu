// Plain CUDA whose internal-linkage names nvcc derives from the file's
// first external function rather than a hash (_INTERNAL_..._cu__Z3runv...):
// cuda::std's customization point objects are such names, in every
// translation unit that includes <cuda/std/iterator> (CUTLASS's examples).
#include <cuda/std/iterator>

int run() { return 0; }

__global__ void first_element(const int* in, int* out) {
  out[0] = *cuda::std::begin(reinterpret_cast<const int(&)[1]>(*in));
}

int main() { return run(); }
