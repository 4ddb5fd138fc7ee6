// RUN: rm -rf %t && mkdir -p %t/include/lib %t/config
// A header-only library has no .cu file: each header no .cu file includes
// is read alone, as nvcc reads a header given with -x cu (with the -I and
// -D given), unless another such header includes it; then it is read
// through that one. The per-category summary comes at the end.
// RUN: sed -n '/^#include/,$p' %s > %t/include/lib/top.cuh
// RUN: printf '__device__ inline int inner(int x) {\n#if LIB_SCALE && __CUDA_ARCH__ >= 800\n  x *= LIB_SCALE;\n#endif\n  return x;\n}\n' > %t/include/lib/inner.cuh
// RUN: printf '#define LIB_SCALE 2\n' > %t/config/lib_config.h
// RUN: %metacu audit %t/include -I %t/config > %t/tree.txt
// RUN: FileCheck %s --check-prefix=TREE < %t/tree.txt
// TREE: include/lib/top.cuh
// TREE: 7-9 statement conditional #if __CUDA_ARCH__ >= 900
// TREE: include/lib/inner.cuh
// TREE: 2-4 statement conditional #if LIB_SCALE && __CUDA_ARCH__ >= 800
// TREE: summary: 2 sites: 2 statement in 2 files
//
// One header given alone, and a -D instead of the configuration header:
// the command line's LIB_SCALE is the build's choice, which 'if codegen'
// alone would fix (a build with -D LIB_SCALE=0 would lose its branch): the
// chain is for LIB_SCALE == 3, and another build reads the conditional as
// written. A value with no one integer to spell stays.
// RUN: %metacu audit %t/include/lib/inner.cuh -D LIB_SCALE=3 | FileCheck %s --check-prefix=ALONE
// ALONE: inner.cuh
// ALONE: 2-4 statement conditional
// ALONE-NEXT: (#if LIB_SCALE == 3), the conditional as written stays in its #elif
// ALONE: summary: 1 site: 1 statement in 1 file
// RUN: %metacu audit %t/include/lib/inner.cuh -D 'LIB_SCALE=(3)' | FileCheck %s --check-prefix=NOVALUE
// NOVALUE: 2-4 not-convertible conditional
// NOVALUE-NEXT: its condition at line 2 tests 'LIB_SCALE' and the architecture together, and 'LIB_SCALE' is a macro here with no one integer value in every pass
//
// RUN: %metacu migrate %t/include/lib --in-place -I %t/config | FileCheck %s --check-prefix=MIGRATE
// RUN: grep -q "if codegen ((int)__nvvm_arch >= 90)" %t/include/lib/top.cuh
// RUN: grep -q "if codegen ((int)__nvvm_arch >= 80)" %t/include/lib/inner.cuh
// MIGRATE-DAG: top.cuh:7: converted (statement)
// MIGRATE-DAG: inner.cuh:2: converted (statement)
// MIGRATE: summary: 2 sites: 2 statement in 2 files
#include "lib_config.h"
#include "inner.cuh"

template <int N> __device__ int scaled(int x) {
  x = inner(x);
  int y = x * N;
#if __CUDA_ARCH__ >= 900
  y += 1;
#endif
  return y;
}
