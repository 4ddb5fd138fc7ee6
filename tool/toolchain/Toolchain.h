//===- Toolchain.h - Where the compilers metacu works with keep things ----===//
//
// The Clang that metacu links (its builtin headers) and the CUDA toolkit
// (its headers), for every part of metacu that parses CUDA code.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_TOOLCHAIN_H
#define METACU_TOOLCHAIN_TOOLCHAIN_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace metacu {

/// The resource directory of the Clang metacu is linked with.
std::string clangResourceDir();

/// The CUDA toolkit's include directory: under \p CudaPath if given, else
/// $CUDA_PATH, else /usr/local/cuda.
std::string cudaIncludeDir(llvm::StringRef CudaPath = "");

} // namespace metacu

#endif
