// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
#include "Inputs/meta_header.cuh"
// CHECK: [[FILE]]:[[@LINE-1]]:10: error: header '{{.*}}Inputs/meta_header.cuh' contains meta constructs (at {{.*}}meta_header.cuh:2:1); metacu expands only the file it is given
