// RUN: %metacu %s -o - --arch 80 -std=c++20 | FileCheck %s
// RUN: not %metacu %s -o - --arch 80 2>&1 | FileCheck %s --check-prefix=CXX17
// The ordinary code is read in the dialect nvcc compiles it in: C++17 by
// default, as nvcc 13; -std=c++20 (or the -std of compile_commands.json)
// for code that needs it. Here C++20 declarations shared with meta code.
template <class T> concept small = sizeof(T) <= 4;
template <small T> constexpr int lanes_for() { return 16 / sizeof(T); }
__global__ void k(int* out) {
  out[0] = @(lanes_for<float>());
}
// CHECK: out[0] = 4;
// CXX17: error: unknown type name 'small'
