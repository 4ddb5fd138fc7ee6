// RUN: rm -f %t.gen.cu
// RUN: not %metacu %s -o %t.gen.cu --arch 999 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not %metacu %s -o %t.gen.cu --arch 75,85 2>&1 | FileCheck %s --check-prefix=ARCH85
// RUN: not %metacu %s -o %t.gen.cu --arch 80a 2>&1 | FileCheck %s --check-prefix=VARIANT
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --meta-timeout inf 2>&1 | FileCheck %s --check-prefix=INF
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --meta-timeout nan 2>&1 | FileCheck %s --check-prefix=NAN
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --meta-timeout -1 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --meta-timeout 1e300 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not test -e %t.gen.cu
// RUN: %metacu %s -o %t.gen.cu --arch 90a --meta-timeout 0
// Options are checked against what they mean: --arch against the
// architectures nvcc 13 compiles for, --meta-timeout as a finite number of
// seconds (inf failed at once, 1e300 too; nan and -1 were taken).
__global__ void k(int* x) { x[0] = @(1); }
// ARCH: metacu: error: architecture '999' is not one nvcc 13 compiles for (75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121)
// ARCH85: metacu: error: architecture '85' is not one nvcc 13 compiles for
// VARIANT: metacu: error: architecture '80a': nvcc 13 has arch-specific targets from sm_90a on
// INF: metacu: error: --meta-timeout inf: give seconds from 0 (no limit) to 1e9
// NAN: metacu: error: --meta-timeout nan: give seconds
// NEGATIVE: metacu: error: --meta-timeout -1: give seconds
// HUGE: metacu: error: --meta-timeout 1e+300: give seconds
