//===- CudaToolkit.h - The CUDA toolkit, as nvcc sees it ------------------===//
//
// Where the CUDA toolkit is, found the way nvcc and CMake find it, and what
// nvcc's host pass gets from it: the include directories bin/nvcc.profile
// adds to every compile (CUDA 13 keeps CCCL -- thrust, cub, libcu++'s
// cuda/std -- under include/cccl, reached only that way) and the macros
// nvcc predefines. Invocation.h turns this into Clang command lines.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TOOLCHAIN_CUDATOOLKIT_H
#define METACU_TOOLCHAIN_CUDATOOLKIT_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace metacu {

struct CudaToolkit {
  /// The toolkit's root, holding bin/ and include/.
  std::string Root;
  /// The include directories nvcc adds to every compile, in its order:
  /// those of INCLUDES (-I) before those of SYSTEM_INCLUDES (-isystem).
  std::vector<std::string> IncludeDirs;
  /// Macro definitions ("NAME=VALUE") nvcc.profile adds.
  std::vector<std::string> Defines;
  /// nvcc's version (__CUDACC_VER_MAJOR__ ...); Build is 0 when the
  /// toolkit does not record it.
  unsigned Major = 0, Minor = 0, Build = 0;
  /// The runtime API version (__CUDA_API_VER_MAJOR__ ...), from cuda.h.
  unsigned ApiMajor = 0, ApiMinor = 0;

  /// The toolkit at \p CudaPath, or if it is empty the one findCudaRoot
  /// finds; read once per process and root.
  static const CudaToolkit &find(llvm::StringRef CudaPath = "");

  /// Reads the toolkit at \p Root: bin/nvcc.profile as nvcc would read it,
  /// or, without one, include/ and include/cccl.
  static CudaToolkit load(llvm::StringRef Root);

  /// The macros nvcc predefines in each of its passes, nvcc.profile's
  /// included, as "NAME" or "NAME=VALUE"; \p DevicePass adds those of its
  /// device passes (not __CUDA_ARCH__, which belongs to the pass).
  std::vector<std::string> nvccMacros(bool DevicePass) const;
};

/// The toolkit root, looked for as nvcc and CMake's FindCUDAToolkit do:
/// \p CudaPath (--cuda-path), $CUDAToolkit_ROOT, $CUDA_PATH, the directory
/// above the bin/ of the nvcc on $PATH (symlinks resolved), /usr/local/cuda.
std::string findCudaRoot(llvm::StringRef CudaPath = "");

} // namespace metacu

#endif
