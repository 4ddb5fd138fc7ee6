// RUN: %metacu --version | FileCheck %s
// RUN: %metacu --help | FileCheck %s --check-prefix=HELP
// CHECK: metacu {{[0-9]+\.[0-9]+\.[0-9]+}} (LLVM 22
// HELP: USAGE: metacu [subcommand] [options] <input.cu>
// HELP: --arch=<list>
// HELP: -o <file>
