// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// The same from the initializer of a namespace-scope meta variable.
#include <stdexcept>
@meta int bad = []() -> int { throw std::runtime_error("no tuning for this GPU"); }();
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: uncaught exception in meta code: no tuning for this GPU
