// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A directive after '@meta' is no directive ('#' does not start the line):
// the statement took the code up to the next ';' as meta code, and the
// error was Clang's about 'out' on the next line.
__global__ void k(int* out) {
  @meta #include <vector>
// CHECK: [[FILE]]:[[@LINE-1]]:9: error: a preprocessor directive cannot be a meta statement: write it on a line of its own
  out[0] = 1;
}
