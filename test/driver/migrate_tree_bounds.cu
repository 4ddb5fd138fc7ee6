// RUN: rm -rf %t && mkdir -p %t/lib %t/proj %t/pipes
// migrate writes only inside the tree it is given, and reads only what can
// be read.
//
// A link out of the tree (proj/ext -> ../lib) is reported and not
// followed: the library it leads to is read through the #include, never
// rewritten.
// RUN: sed -n '/^__device__/,$p' %s > %t/lib/util.cuh && cp %t/lib/util.cuh %t/util.orig
// RUN: printf '#include "ext/util.cuh"\n__global__ void k(int *p) { *p = twice(*p); }\n' > %t/proj/k.cu
// RUN: ln -s ../lib %t/proj/ext
// RUN: %metacu migrate --in-place %t/proj | FileCheck %s --check-prefix=LINK
// RUN: cmp %t/util.orig %t/lib/util.cuh
// LINK: proj/ext: note: leads out of the tree to '{{.*}}lib'; not followed, nothing there is rewritten
// LINK: ext/util.cuh:2: left (not-convertible): {{.*}}in a header outside the tree
//
// -o DIR inside the tree, or onto a file of it, however spelled, is
// refused before anything is read or written.
// RUN: cp %t/proj/k.cu %t/k.orig
// RUN: not %metacu migrate -o %t/proj %t/proj 2>&1 | FileCheck %s --check-prefix=INSIDE
// RUN: not %metacu migrate -o %t/proj/../proj/out %t/proj 2>&1 | FileCheck %s --check-prefix=INSIDE
// RUN: not %metacu migrate -o %t/lib/../proj %t/proj/k.cu 2>&1 | FileCheck %s --check-prefix=ONTO
// RUN: cmp %t/k.orig %t/proj/k.cu
// RUN: test ! -e %t/proj/out
// INSIDE: metacu: error: the output folder '{{.*}}' is inside the tree it migrates ('{{.*}}proj'): name a folder outside it, or use --in-place
// ONTO: metacu: error: -o {{.*}} would write '{{.*}}k.cu' over '{{.*}}k.cu', a file it migrates
__device__ inline int twice(int x) {
#if __CUDA_ARCH__ >= 800
  x *= 2;
#endif
  return x;
}
//
// In place, a link to a file of the tree stays a link, and the file it
// names is rewritten, whichever name is given.
// RUN: mkdir %t/linked && cp %t/util.orig %t/linked/real.cuh && ln -s real.cuh %t/linked/alias.cuh
// RUN: printf '#include "alias.cuh"\n__global__ void k(int *p) { *p = twice(*p); }\n' > %t/linked/k.cu
// RUN: %metacu migrate --in-place %t/linked/k.cu %t/linked/alias.cuh
// RUN: test -L %t/linked/alias.cuh
// RUN: grep -q "if codegen" %t/linked/real.cuh
//
// A pipe named like a source is an error at its path, never a wait; the
// rest of the tree is still written.
// RUN: mkfifo %t/pipes/p.cu %t/pipes/p.cuh
// RUN: printf '__global__ void g(int *p) { *p = 1; }\n' > %t/pipes/good.cu
// RUN: not %metacu migrate -o %t/pipes_out %t/pipes 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: not %metacu migrate --in-place %t/pipes 2>&1 | FileCheck %s --check-prefix=PIPE
// RUN: cmp %t/pipes/good.cu %t/pipes_out/good.cu
// PIPE-DAG: pipes/p.cu: error: cannot read the file: not a regular file
// PIPE-DAG: pipes/p.cuh: error: cannot read the file: not a regular file
