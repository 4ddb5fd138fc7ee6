// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%s
// RUN: not test -e %t.gen.cu
@meta auto cfg = metacu::load_json("Inputs/does_not_exist.json");
// CHECK: [[FILE]]:[[@LINE-1]]:1: error: cannot open 'Inputs/does_not_exist.json': No such file or directory
