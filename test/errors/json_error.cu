// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A broken data file: the statement that read it, and the place in it.
__global__ void k(int* x) {
  @meta auto cfg = metacu::load_json("Inputs/broken.json");
// CHECK: [[FILE]]:[[@LINE-1]]:3: error: Inputs/broken.json:2:18: unexpected character ']' in JSON
}
