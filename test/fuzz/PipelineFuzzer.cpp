//===- PipelineFuzzer.cpp - libFuzzer target for the whole expansion ------===//
//
// Arbitrary bytes through every stage (scan, host slice, check, lower,
// execute, emit) must end in an expansion or in errors, never in a crash
// of metacu. Meta code the mutations produce runs in metacu's child process
// with a short time and memory limit, as a user's would.
//
//===----------------------------------------------------------------------===//
#include "expand/Pipeline.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  static const metacu::ArchList Archs =
      llvm::cantFail(metacu::ArchList::parse("75,90a"));
  static const metacu::PipelineOptions Opts = [] {
    metacu::PipelineOptions O;
    O.Toolkit = metacu::CudaToolkit::find(METACU_CUDA_ROOT);
    O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    O.CacheDir = METACU_FUZZ_CACHE_DIR;
    O.OutputName = "fuzz.gen.cu";
    O.Limits.TimeoutSeconds = 10;
    O.Limits.MemoryBytes = uint64_t(512) << 20;
    return O;
  }();
  metacu::SourceFile File(
      "fuzz.cu", std::string(reinterpret_cast<const char *>(Data), Size));
  auto X = metacu::expandFile(File, Archs, Opts);
  if (!X)
    llvm::consumeError(X.takeError());
  return 0;
}
