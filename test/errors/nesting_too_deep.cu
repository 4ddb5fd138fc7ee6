// Deep nesting is an error at the first level past the limit, never a stack
// overflow; just under the limit, expansion works.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python %S/Inputs/nest.py braces 300 %t/braces.cu
// RUN: not %metacu %t/braces.cu -o %t/braces.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%t/braces.cu --check-prefix=BRACES
// RUN: not test -e %t/braces.gen.cu
// BRACES: [[FILE]]:257:1: error: nesting too deep: more than 256 levels of brackets and meta constructs
//
// RUN: %python %S/Inputs/nest.py meta-if 5000 %t/ifs.cu
// RUN: not %metacu %t/ifs.cu -o %t/ifs.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%t/ifs.cu --check-prefix=IFS
// IFS: [[FILE]]:{{[0-9]+}}:{{[0-9]+}}: error: nesting too deep
// IFS-NOT: input_line
//
// RUN: %python %S/Inputs/nest.py meta-for 5000 %t/fors.cu
// RUN: not %metacu %t/fors.cu -o %t/fors.gen.cu --arch 80 2>&1 | FileCheck %s -DFILE=%t/fors.cu --check-prefix=FORS
// FORS: [[FILE]]:{{[0-9]+}}:{{[0-9]+}}: error: nesting too deep
//
// RUN: %python %S/Inputs/nest.py meta-for 250 %t/ok.cu
// RUN: %metacu %t/ok.cu -o %t/ok.gen.cu --arch 80
// RUN: grep -c "x\[0\] = 1;" %t/ok.gen.cu | FileCheck %s --check-prefix=OK
// OK: 1
