//===- Ptxas.h - Registers, spills and memory of each kernel, from ptxas --===//
//
// metacu report compiles the generated file once per architecture: nvcc
// -ptx, then ptxas -v on that PTX (through nvcc, as nvcc -cubin -Xptxas -v
// would run it), keeping the PTX for PtxCounts and reading ptxas's resource
// lines per entry function. No GPU is needed.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_REPORT_PTXAS_H
#define METACU_REPORT_PTXAS_H

#include "toolchain/Arch.h"
#include "toolchain/CompileFlags.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace metacu::report {

/// What ptxas -v says of one entry function.
struct KernelResources {
  std::string Mangled;
  unsigned Registers = 0;
  /// Block barriers (bar.sync ids) the kernel uses.
  unsigned Barriers = 0;
  uint64_t StackBytes = 0;
  uint64_t SpillStoreBytes = 0;
  uint64_t SpillLoadBytes = 0;
  uint64_t StaticSharedBytes = 0;
  /// The constant banks ptxas lists for the entry (cmem[0] holds the
  /// parameters; from sm_90 on ptxas lists none). __constant__ variables
  /// are the module's, not the entry's, and are not included.
  uint64_t ConstantBytes = 0;
};

/// The entry functions in ptxas -v output for one architecture, in the
/// order ptxas compiled them; with \p Functions, also the other functions'
/// stack frames and spills (device functions nvcc did not inline), which
/// ptxas lists apart from the kernels that call them.
llvm::Expected<std::vector<KernelResources>>
parsePtxasLog(llvm::StringRef Log,
              std::vector<KernelResources> *Functions = nullptr);

/// A kernel's name as written, unqualified and without template arguments:
/// "big" for _ZN2ns3bigILi200EEEvPKfPf; an extern "C" name is itself.
std::string kernelName(llvm::StringRef Mangled);

/// The nvcc of the toolkit findCudaRoot() finds for \p CudaPath
/// (--cuda-path, $CUDAToolkit_ROOT, $CUDA_PATH, the nvcc on $PATH,
/// /usr/local/cuda).
std::string findNvcc(llvm::StringRef CudaPath);

struct NvccOptions {
  std::string Nvcc;
  /// For the generated file: -I, -D, -std=...
  std::vector<std::string> Args;
  /// Where the PTX, cubins and logs go.
  std::string WorkDir;
  /// The virtual architecture the PTX is for ("compute_80"), assembled by
  /// ptxas for each target, as -gencode arch=compute_80,code=sm_90 does
  /// (an older image on a newer GPU); empty: each target's own.
  std::string PtxArch;
  /// Where earlier builds are kept (BuildCache.h); empty: none is.
  std::string CacheDir;
};

/// nvcc's spelling of the user's preprocessor flags for a file generated
/// from one in \p InputDir, metacu's runtime headers first.
std::vector<std::string> nvccArgs(const CompileFlags &Flags,
                                  llvm::StringRef RuntimeInclude,
                                  llvm::StringRef InputDir);

struct ArchBuild {
  Arch Target;
  std::string Ptx;
  std::string PtxasLog;
};

/// Compiles \p GenFile for each of \p Archs, all architectures at once:
/// the PTX nvcc generates and what ptxas -v says compiling it. With a
/// CacheDir, a build of the same inputs stored there is taken instead, and
/// a new one is stored.
llvm::Expected<std::vector<ArchBuild>> buildForArchs(llvm::StringRef GenFile,
                                                     llvm::ArrayRef<Arch> Archs,
                                                     const NvccOptions &Opts);

} // namespace metacu::report

#endif
