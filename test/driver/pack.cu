// scripts/pack makes a folder that runs where it is moved, with a clean
// environment (but for the sanitizer build's ASAN_OPTIONS), on its own
// libraries and headers.
// RUN: rm -rf %t && mkdir -p %t/packed %t/built
// RUN: %python %pack %t/first > %t/pack.log
// RUN: mv %t/first %t/moved
// RUN: env -i ASAN_OPTIONS=$ASAN_OPTIONS %t/moved/bin/metacu --version | FileCheck %s -DPKG=%t/moved
// CHECK: metacu {{.*}} (LLVM [[MAJOR:[0-9]+]]
// CHECK-NEXT: runtime headers: [[PKG]]/include
// CHECK-NEXT: clang resource directory: [[PKG]]/lib/clang/[[MAJOR]]
//
// Every library the loader finds lies in the package, except glibc's and
// the GCC runtime's; LLVM's among them.
// RUN: env -i ASAN_OPTIONS=$ASAN_OPTIONS ldd %t/moved/bin/metacu > %t/ldd.txt
// RUN: FileCheck %s --check-prefix=LLVM -DPKG=%t/moved < %t/ldd.txt
// LLVM: libLLVM{{.*}} => [[PKG]]/bin/../lib/libLLVM
// RUN: grep '=>' %t/ldd.txt | grep -v -e 'libc\.so' -e 'libm\.so' -e 'libdl\.so' -e 'libpthread\.so' \
// RUN:   -e 'librt\.so' -e 'libresolv\.so' -e 'libutil\.so' -e 'libstdc++' -e 'libgcc_s' \
// RUN:   | not grep -v "=> %t/moved/bin/\.\./lib/"
//
// The package's clang (metacu tune's harness compiler) runs on the same
// libraries, those of libLLVM's own too, and finds its resource directory
// in the package.
// RUN: env -i ASAN_OPTIONS=$ASAN_OPTIONS PATH=/usr/bin:/bin %t/moved/bin/clang -print-resource-dir \
// RUN:   | FileCheck %s --check-prefix=CLANG
// CLANG: {{.*}}/moved/lib/clang/{{[0-9]+}}
// RUN: env -i ASAN_OPTIONS=$ASAN_OPTIONS PATH=/usr/bin:/bin LD_DEBUG=libs %t/moved/bin/clang --version 2> %t/clang-libs.txt > /dev/null
// RUN: grep 'calling init:' %t/clang-libs.txt | grep -c libLLVM
// RUN: grep 'calling init:' %t/clang-libs.txt | grep -v -e 'libc\.so' -e 'libm\.so' -e 'libdl\.so' -e 'libpthread\.so' \
// RUN:   -e 'librt\.so' -e 'libresolv\.so' -e 'libutil\.so' -e 'libstdc++' -e 'libgcc_s' -e 'ld-linux' \
// RUN:   | not grep -v "init: .*/moved/bin/\.\./lib/"
//
// The packed binary expands a sample (std headers, the runtime's
// tune_space and json in meta code) to the bytes the build's binary does.
// RUN: cd %S/../../samples/axpy && env -i ASAN_OPTIONS=$ASAN_OPTIONS PATH=/usr/bin:/bin HOME=%t %t/moved/bin/metacu \
// RUN:   axpy.cu -o %t/packed/axpy.gen.cu --arch 75,80,90
// RUN: cd %S/../../samples/axpy && %metacu axpy.cu -o %t/built/axpy.gen.cu --arch 75,80,90
// RUN: cmp %t/packed/axpy.gen.cu %t/built/axpy.gen.cu
//
// A runtime header spliced in is named in #line by where the package lies
// now: a file, which nvcc's dependency file can list.
// RUN: env -i ASAN_OPTIONS=$ASAN_OPTIONS PATH=/usr/bin:/bin HOME=%t %t/moved/bin/metacu \
// RUN:   %S/Inputs/includes_dma.cu -o %t/packed/dma.gen.cu --arch 80
// RUN: FileCheck %s --check-prefix=DMA -DPKG=%t/moved < %t/packed/dma.gen.cu
// DMA: #line {{[0-9]+}} "[[PKG]]/include/metacu/dma.cuh"
//
// An existing folder is refused and left as it is.
// RUN: not %python %pack %t/moved 2>&1 | FileCheck %s --check-prefix=EXISTS
// EXISTS: pack: {{.*}}moved exists
// RUN: test -x %t/moved/bin/metacu
//
// A failed run leaves nothing behind, staging folder included.
// RUN: not %python %pack --exclude libnothing.so.1 %t/failed 2>&1 | FileCheck %s --check-prefix=EXCLUDE
// EXCLUDE: pack: --exclude libnothing.so.1: metacu does not load it
// RUN: ls -A %t | not grep -e failed -e '^\.pack'
// RUN: rm -rf %t
