// A file nvcc's preprocessor rejects is an error at its place, with no
// output, as nvcc reports it: an #include cycle, an unterminated comment
// in an #if 0 region (which swallows the #endif; nvcc names the comment),
// in the input or a header, an #error. What only a host compiler that is
// not nvcc would stop at ('#ifndef __CUDACC__ #error') is no error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -n '/^__global__/,$p' %s > %t/body
// RUN: (echo '#include "a.h"'; cat %t/body) > %t/cycle.cu
// RUN: echo '#include "b.h"' > %t/a.h && echo '#include "a.h"' > %t/b.h
// RUN: (cat %t/body; printf '#if 0\n/* never closed\n#endif\n') > %t/comment.cu
// RUN: printf '#if 0\n/* never closed\n#endif\n' > %t/comment.h
// RUN: (cat %t/body; echo '#include "comment.h"') > %t/comment_header.cu
// RUN: (echo '#error stop here'; cat %t/body) > %t/error.cu
// RUN: (printf '#ifndef __CUDACC__\n#error not nvcc\n#endif\n'; cat %t/body) > %t/cudacc.cu
// RUN: for f in cycle comment comment_header error; do not %metacu %t/$f.cu -o %t/$f.gen.cu --arch 80 2>> %t/err.txt || exit 1; test ! -e %t/$f.gen.cu || exit 1; done
// RUN: FileCheck %s -DDIR=%t < %t/err.txt
// Audit names the comment too.
// RUN: not %metacu audit %t/comment.cu %t/comment_header.cu 2> %t/audit.txt
// RUN: FileCheck %s -DDIR=%t --check-prefix=AUDIT < %t/audit.txt
// AUDIT-DAG: [[DIR]]/comment.cu:3:1: error: unterminated /* comment
// AUDIT-DAG: [[DIR]]/comment.h:2:1: error: unterminated /* comment
// RUN: %metacu %t/cudacc.cu -o %t/cudacc.gen.cu --arch 80
// RUN: grep -q "__global__ void k" %t/cudacc.gen.cu
// CHECK: [[DIR]]/{{.*}}.h:1:10: error: #include nested too deeply
// CHECK: [[DIR]]/comment.cu:3:1: error: unterminated /* comment
// CHECK: [[DIR]]/comment.h:2:1: error: unterminated /* comment
// CHECK: [[DIR]]/error.cu:1:2: error: stop here
__global__ void k(int *x) { x[0] = 1; }
