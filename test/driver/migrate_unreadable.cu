// RUN: rm -rf %t && mkdir -p %t/out && cp %s %t/good.cu
// RUN: printf 'int x;\n#include "missing.h"\n' > %t/bad.cu
// One file that cannot be read or preprocessed is reported at its place;
// the other files are still audited and migrated, and the run fails. With
// -o DIR the file that could not be audited is copied as it is: the
// output tree is whole.
// RUN: not %metacu audit %t/bad.cu %t/absent.cu %t/good.cu > %t/audit.txt 2> %t/audit.err
// RUN: FileCheck %s --check-prefixes=ERR,AUDITERR < %t/audit.err
// RUN: FileCheck %s --check-prefix=AUDIT < %t/audit.txt
// RUN: not %metacu migrate -o %t/out %t/bad.cu %t/good.cu > %t/migrate.txt 2> %t/migrate.err
// RUN: FileCheck %s --check-prefix=ERR < %t/migrate.err
// RUN: FileCheck %s --check-prefix=MIGRATE < %t/migrate.txt
// RUN: grep -q "if codegen" %t/out/good.cu
// RUN: cmp %t/bad.cu %t/out/bad.cu
__device__ int twice(int x) {
#if __CUDA_ARCH__ >= 800
  x *= 2;
#endif
  return x;
}
// ERR: {{.*}}bad.cu:2:10: error: 'missing.h' file not found
// AUDITERR: {{.*}}absent.cu: error: cannot read the file: No such file or directory
// ERR-NOT: good.cu
// AUDIT-NOT: bad.cu
// AUDIT: good.cu
// AUDIT: statement
// AUDIT: summary: 1 site: 1 statement in 1 file
// MIGRATE-DAG: good.cu:16: converted (statement)
// MIGRATE-DAG: bad.cu: note: could not be audited; copied unchanged
