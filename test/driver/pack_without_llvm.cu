// REQUIRES: mount-namespace
// The packed metacu runs where LLVM is not: in a mount namespace of its
// own, the system's copies of the libraries the package carries and Clang's
// builtin headers are hidden (Inputs/without-llvm.sh).
// RUN: rm -rf %t && mkdir -p %t/packed %t/built
// RUN: %python %pack %t/pkg > %t/pack.log
//
// The hiding works: the build's binary cannot start there (the loader's
// 127, which `not` takes for a failure to run, hence the `|| true`).
// RUN: unshare -m bash %S/Inputs/without-llvm.sh %t/pkg %metacu --version > %t/built.txt 2>&1 || true
// RUN: FileCheck %s --check-prefix=BUILT < %t/built.txt
// BUILT: error while loading shared libraries
//
// The packed one expands a sample to the build's bytes, and writes a tune
// bundle (the space's restrictions run by the interpreter).
// RUN: cd %S/../../samples/axpy && unshare -m bash %S/Inputs/without-llvm.sh %t/pkg \
// RUN:   env -i ASAN_OPTIONS=$ASAN_OPTIONS PATH=/usr/bin:/bin HOME=%t %t/pkg/bin/metacu axpy.cu -o %t/packed/axpy.gen.cu --arch 75,80,90
// RUN: cd %S/../../samples/axpy && %metacu axpy.cu -o %t/built/axpy.gen.cu --arch 75,80,90
// RUN: cmp %t/packed/axpy.gen.cu %t/built/axpy.gen.cu
// RUN: unshare -m bash %S/Inputs/without-llvm.sh %t/pkg env -i ASAN_OPTIONS=$ASAN_OPTIONS PATH=/usr/bin:/bin HOME=%t \
// RUN:   %t/pkg/bin/metacu tune %S/../tune/Inputs/scale.cu --arch 90 --emit-bundle %t/bundle \
// RUN:   --batch-size 4 2>&1 | FileCheck %s --check-prefix=TUNE
// TUNE: metacu tune: {{.*}}bundle: 18 candidates of scale (18 valid configurations)
// RUN: rm -rf %t
