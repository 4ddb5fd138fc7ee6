// RUN: rm -rf %t && mkdir -p %t && cp %s %t/k.cu
// The output may not be the input, whatever the spelling.
// RUN: not %metacu %t/k.cu -o %t/../%basename_t.tmp/k.cu --arch 80 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: cmp %s %t/k.cu
// SAME: metacu: error: the output '{{.*}}k.cu' is the input file; choose another -o
//
// A read-only output is left as it was.
// RUN: echo old > %t/ro.gen.cu && chmod 444 %t/ro.gen.cu
// RUN: not %metacu %t/k.cu -o %t/ro.gen.cu --arch 80 2>&1 | FileCheck %s --check-prefix=RO
// RUN: grep -qx old %t/ro.gen.cu
// RO: metacu: error: cannot write '{{.*}}ro.gen.cu': the file is read-only
//
// An unwritable dependency file leaves the existing output untouched.
// RUN: echo old > %t/k.gen.cu
// RUN: not %metacu %t/k.cu -o %t/k.gen.cu --arch 80 -MD -MF %t/missing/k.d 2>&1 | FileCheck %s --check-prefix=DEP
// RUN: grep -qx old %t/k.gen.cu
// DEP: metacu: error: cannot write '{{.*}}missing/k.d'
//
// A device is written through, not replaced.
// RUN: %metacu %t/k.cu -o /dev/null --arch 80
// RUN: test -c /dev/null
//
// With '-o -' a failed run prints nothing on stdout.
// RUN: not %metacu %t/k.cu -o - --arch 80 -DBREAK 2>/dev/null | count 0
__global__ void k(int* x) {
  @meta int n = 4;
#ifdef BREAK
  @meta metacu::fail("broken");
#endif
  x[0] = n;
}
