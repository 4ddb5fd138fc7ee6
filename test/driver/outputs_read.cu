// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu && cp %S/Inputs/tuning.json %S/Inputs/local.h %t/
// RUN: cd %t && cp k.cu k.cu.orig && cp local.h local.h.orig && cp tuning.json tuning.json.orig
// No output replaces a file the run reads, by identity, not by spelling:
// the input, a header it includes, a data file its meta code reads.
// RUN: not %metacu k.cu -o k.gen.cu --arch 80 -MD -MF k.cu 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: metacu: error: cannot write 'k.cu': {{.*}}a file this run reads
// RUN: not %metacu k.cu -o k.gen.cu --arch 80 -MD -MF ./local.h 2>&1 | FileCheck %s --check-prefix=HEADER
// HEADER: metacu: error: cannot write './local.h': it is '{{.*}}local.h', a file this run reads
// RUN: not %metacu k.cu -o tuning.json --arch 80 2>&1 | FileCheck %s --check-prefix=DATA
// DATA: metacu: error: cannot write 'tuning.json': it is '{{.*}}tuning.json', a file this run reads
// A file given to -include is read too.
// RUN: echo '#define PRE 1' > pre.h && cp pre.h pre.h.orig
// RUN: not %metacu k.cu -o k.gen.cu --arch 80 -include pre.h -MD -MF pre.h 2>&1 | FileCheck %s --check-prefix=PRE
// PRE: metacu: error: cannot write 'pre.h': {{.*}}a file this run reads
// RUN: cmp pre.h pre.h.orig
// Through a symbolic link, and through a hard link.
// RUN: ln -s k.cu link.d && ln local.h hard.d
// RUN: not %metacu k.cu -o k.gen.cu --arch 80 -MD -MF link.d 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: metacu: error: cannot write 'link.d': {{.*}}a file this run reads
// RUN: not %metacu k.cu -o k.gen.cu --arch 80 -MD -MF hard.d 2>&1 | FileCheck %s --check-prefix=HARD
// HARD: metacu: error: cannot write 'hard.d': {{.*}}a file this run reads
// The dependency file may not be the output either.
// RUN: not %metacu k.cu -o k.gen.cu --arch 80 -MD -MF ./k.gen.cu 2>&1 | FileCheck %s --check-prefix=TWICE
// TWICE: metacu: error: cannot write './k.gen.cu': it is also the output 'k.gen.cu'
// Every file as it was, no output written.
// RUN: cmp k.cu k.cu.orig && cmp local.h local.h.orig && cmp tuning.json tuning.json.orig
// RUN: test -L link.d && not test -e k.gen.cu && not test -e k.gen.cu.d
//
// An output that is a symbolic link is written through: the link stays, its
// target gets the text.
// RUN: echo old > target.gen.cu && ln -s target.gen.cu out.gen.cu
// RUN: %metacu k.cu -o out.gen.cu --arch 80
// RUN: test -L out.gen.cu && grep -q __global__ target.gen.cu
// A link to a missing file is refused.
// RUN: ln -s missing/x.gen.cu dangling.gen.cu
// RUN: not %metacu k.cu -o dangling.gen.cu --arch 80 2>&1 | FileCheck %s --check-prefix=DANGLING
// DANGLING: metacu: error: cannot write 'dangling.gen.cu': it is a symbolic link to a missing file
#include "local.h"
__global__ void k(int* x) {
  @meta auto t = metacu::load_json("tuning.json");
  x[0] = @(t["n"].get<int>() + local_value);
}
