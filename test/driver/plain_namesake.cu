// RUN: %metacu %S/../plain/untagged_namesake.cu -o %t.gen.cu --arch 80
// A plain file whose device code calls a namespace-qualified function named
// like one of its host functions comes out byte for byte after the
// preamble: Sema's callee decides, not the name.
// RUN: sed '1,/^#line 1 /d' %t.gen.cu | diff - %S/../plain/untagged_namesake.cu
// RUN: %nvcc -ptx -arch=sm_80 %t.gen.cu -o %t.ptx
