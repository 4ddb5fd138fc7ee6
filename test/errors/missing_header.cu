// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
#include "no_such_header.cuh"
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: 'no_such_header.cuh' file not found (pass its directory with -I, or -p BUILD_DIR)
