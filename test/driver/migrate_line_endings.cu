// RUN: rm -rf %t && mkdir -p %t
// Clang and nvcc end a line at a lone CR, at a CRLF and at an LF. migrate
// edits the lines they see and keeps each line's own line break, and a
// byte order mark stays first.
// RUN: printf '__device__ int twice(int x) {\r#if __CUDA_ARCH__ >= 800\r  x *= 2;\r#endif\r  return x;\r}\r' > %t/cr.cu
// RUN: printf '\357\273\277__device__ int twice(int x) {\r\n#if __CUDA_ARCH__ >= 800\r\n  x *= 2;\r\n#endif\r\n  return x;\r\n}\r\n' > %t/bom_crlf.cu
// RUN: %metacu audit %t/cr.cu | FileCheck %s --check-prefix=AUDIT
// RUN: %metacu migrate --in-place %t/cr.cu %t/bom_crlf.cu | FileCheck %s --check-prefix=MIGRATE
// RUN: printf '__device__ int twice(int x) {\r  if codegen ((int)__nvvm_arch >= 80) {\r  x *= 2;\r  }\r  return x;\r}\r' > %t/cr.want
// RUN: printf '\357\273\277__device__ int twice(int x) {\r\n  if codegen ((int)__nvvm_arch >= 80) {\r\n  x *= 2;\r\n  }\r\n  return x;\r\n}\r\n' > %t/bom_crlf.want
// RUN: cmp %t/cr.cu %t/cr.want
// RUN: cmp %t/bom_crlf.cu %t/bom_crlf.want
// AUDIT: 2-4 statement conditional #if __CUDA_ARCH__ >= 800
// MIGRATE-DAG: cr.cu:2: converted (statement)
// MIGRATE-DAG: bom_crlf.cu:2: converted (statement)
