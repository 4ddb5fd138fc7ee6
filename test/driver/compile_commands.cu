// RUN: rm -rf %t && mkdir -p %t/build %t/inc && cp %s %t/k.cu
// RUN: printf 'constexpr int from_db = 9;\n' > %t/inc/db.h
// RUN: printf '[{"directory": "%t/build", "file": "%t/k.cu", "command": "nvcc -I../inc -DSCALE=3 -c %t/k.cu"}]' > %t/build/compile_commands.json
// RUN: %metacu %t/k.cu -o %t/k.gen.cu --arch 80 -p %t/build
// RUN: FileCheck %s < %t/k.gen.cu
// -p reads -I and -D from compile_commands.json, in nvcc's spelling too.
#include "db.h"
__global__ void k(int* x) { x[0] = @(from_db * SCALE); }
// CHECK: x[0] = 27;
