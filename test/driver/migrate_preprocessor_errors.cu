// RUN: rm -rf %t && mkdir -p %t
// A file the preprocessor rejects is an error at its place, as nvcc would
// report it; audit lists none of its sites and migrate rewrites nothing in
// it. The other files are still migrated, and the run fails.
// RUN: sed -n '/^__device__/,$p' %s > %t/body
// RUN: (echo '#error stop here'; cat %t/body) > %t/error.cu
// RUN: (cat %t/body; printf '#if 1\nint y;\n') > %t/unterminated.cu
// RUN: (cat %t/body; printf '#if 1\n#else\n#else\n#endif\n') > %t/else_twice.cu
// RUN: (echo '#include "self.cu"'; cat %t/body) > %t/self.cu
// RUN: (echo '#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800'; echo '#error needs sm_80'; echo '#endif'; cat %t/body) > %t/arch.cu
// RUN: cp %t/body %t/good.cu && mkdir %t/orig && cp %t/*.cu %t/orig/
// RUN: not %metacu audit %t/error.cu %t/unterminated.cu %t/else_twice.cu %t/self.cu %t/arch.cu %t/good.cu > %t/audit.txt 2> %t/audit.err
// RUN: FileCheck %s --check-prefix=ERR < %t/audit.err
// RUN: FileCheck %s --check-prefix=AUDIT < %t/audit.txt
// RUN: not %metacu migrate --in-place %t/error.cu %t/unterminated.cu %t/else_twice.cu %t/self.cu %t/arch.cu %t/good.cu 2> %t/migrate.err
// RUN: FileCheck %s --check-prefix=ERR < %t/migrate.err
// RUN: for f in error unterminated else_twice self arch; do cmp %t/orig/$f.cu %t/$f.cu || exit 1; done
// RUN: grep -q "if codegen" %t/good.cu
// ERR-DAG: error.cu:1:2: error: stop here
// ERR-DAG: unterminated.cu:7:2: error: unterminated conditional directive
// ERR-DAG: else_twice.cu:9:2: error: #else after #else
// ERR-DAG: self.cu:1:10: error: #include nested too deeply
// ERR-DAG: arch.cu:2:2: error: needs sm_80 (compiling for sm_75)
// AUDIT-NOT: error.cu
// AUDIT-NOT: unterminated.cu
// AUDIT-NOT: else_twice.cu
// AUDIT-NOT: self.cu
// AUDIT-NOT: arch.cu
// AUDIT: good.cu
// AUDIT: summary: 1 site: 1 statement in 1 file
__device__ int twice(int x) {
#if __CUDA_ARCH__ >= 800
  x *= 2;
#endif
  return x;
}
