// RUN: not %metacu %s -o %t.gen.cu --arch 80 --meta-memory -1 2>&1 | FileCheck %s --check-prefix=UINT --implicit-check-not=option:
// RUN: not %metacu %s -o %t.gen.cu --arch 80 --no-such-option 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %metacu report %s --arch 80 --block 128 --format yaml 2>&1 | FileCheck %s --check-prefix=ENUM
// RUN: not %metacu audit --no-such-option %s 2>&1 | FileCheck %s --check-prefix=AUDIT
// RUN: not %metacu tune --replay 2>&1 | FileCheck %s --check-prefix=MISSING
// Every option error of every subcommand is in the project's form (was:
// llvm::cl's own, "metacu: for the --meta-memory option: '-1' value invalid
// for uint argument!").
__global__ void k(int* x) { x[0] = 1; }
// UINT: metacu: error: --meta-memory: '-1' value invalid for uint argument{{$}}
// UNKNOWN: metacu: error: Unknown command line argument '--no-such-option'.
// ENUM: metacu: error: --format: Cannot find option named 'yaml'{{$}}
// AUDIT: metacu: error: Unknown command line argument '--no-such-option'.
// MISSING: metacu: error: --replay: requires a value{{$}}
