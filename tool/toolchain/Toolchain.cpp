//===- Toolchain.cpp ------------------------------------------------------===//
#include "toolchain/Toolchain.h"

#include <cstdlib>

namespace metacu {

std::string clangResourceDir() { return CLANG_RESOURCE_DIR; }

std::string cudaIncludeDir(llvm::StringRef CudaPath) {
  std::string Root = CudaPath.str();
  if (Root.empty())
    if (const char *E = std::getenv("CUDA_PATH"))
      Root = E;
  if (Root.empty())
    Root = "/usr/local/cuda";
  return Root + "/include";
}

} // namespace metacu
