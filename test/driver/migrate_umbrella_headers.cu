// RUN: rm -rf %t && mkdir -p %t/lib/src
// A header-only library whose umbrella header has no extension (Eigen's
// `Eigen/Core`): its details are no headers to read alone (they need the
// macros the umbrella defines first), and migrate reads them through it,
// as a program that includes <lib/Core> has them.
// RUN: printf '#ifndef LIB_CORE\n#define LIB_CORE\n#include "src/macros.h"\n#include "src/detail.h"\n#endif\n' > %t/lib/Core
// RUN: printf '#define LIB_AT_LEAST(x) (x >= 1)\n' > %t/lib/src/macros.h
// RUN: sed -n '/^#if LIB_AT_LEAST/,$p' %s > %t/lib/src/detail.h
// RUN: printf 'A header-only library.\n' > %t/lib/README
// RUN: cp %t/lib/src/detail.h %t/detail.orig
// RUN: %metacu migrate --in-place %t/lib | FileCheck %s
// CHECK: detail.h:4: converted (statement)
// CHECK: summary: 1 site: 1 statement in 2 files
// CHECK-NOT: error
// RUN: grep -q "if codegen ((int)__nvvm_arch >= 80)" %t/lib/src/detail.h
// RUN: grep -qx 'A header-only library.' %t/lib/README
//
// Read alone, the detail header is an error where the umbrella is missing.
// RUN: cp %t/detail.orig %t/lib/src/detail.h
// RUN: not %metacu audit %t/lib/src/detail.h 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: detail.h:1:5: error: function-like macro 'LIB_AT_LEAST' is not defined
#if LIB_AT_LEAST(2)
__device__ inline int twice(int x) {
  int y = x;
#if __CUDA_ARCH__ >= 800
  y *= 2;
#endif
  return y;
}
#endif
