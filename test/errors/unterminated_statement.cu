// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta int n = 4
// CHECK: [[FILE]]:[[@LINE-1]]:7: error: expected ';' at the end of this meta statement
