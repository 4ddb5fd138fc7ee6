// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
// A dialect header's meta declarations are visible after its #include, as
// C++ declarations are, and not before.
@meta int early = header_width;
// CHECK: [[FILE]]:[[@LINE-1]]:19: error: use of undeclared identifier 'header_width'
#include "Inputs/header_declares.cuh"
@meta int late = header_width;
