// UNSUPPORTED: asan
// RUN: %metacu %s -o %t.gen.cu --arch 80 --meta-memory 256
// RUN: FileCheck %s < %t.gen.cu
// An allocation past --meta-memory throws std::bad_alloc, which meta code
// may catch, as it could in any C++ program.
#include <new>
#include <vector>
@meta bool caught = [] {
  try {
    std::vector<char> huge(size_t(1) << 34);
    return huge.empty();
  } catch (const std::bad_alloc&) {
    return true;
  }
}();
__global__ void k(int* x) { x[0] = caught; }
// CHECK: x[0] = true;
