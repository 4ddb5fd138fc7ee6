//===- PipelineFuzzer.cpp - libFuzzer target for the whole expansion ------===//
//
// Arbitrary bytes through every stage (scan, host slice, check, lower,
// execute, emit) must end in an expansion or in errors, never in a crash
// of metacu. Meta code the mutations produce runs in metacu's child process
// with a short time and memory limit, as a user's would.
//
// The first byte picks how the rest is written and run, as careless or
// hostile users would: line breaks (LF, CRLF, a lone CR), a byte order
// mark, an --arch list (some invalid), and -D/-U/-include values (some
// missing or not compiling). An expansion of an input without meta code
// must then have LF line breaks only and no byte order mark.
//
//===----------------------------------------------------------------------===//
#include "expand/Pipeline.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  return 0;
}

namespace {

/// \p Text with each LF written as \p Break.
std::string withLineBreaks(llvm::StringRef Text, llvm::StringRef Break) {
  std::string Out;
  for (char C : Text)
    if (C == '\n')
      Out += Break;
    else
      Out += C;
  return Out;
}

const char *const ArchSpecs[] = {
    "75,90a", "80",     "999",
    "80a",    "90,90a", "75,80,86,87,88,89,90,100,103,110,120,121"};

std::vector<std::string> flagsFor(unsigned Choice) {
  switch (Choice) {
  case 1:
    return {"-DFUZZ=1", "-UFUZZ"};
  case 2:
    return {"-DX("};
  case 3:
    return {"-include/nonexistent/fuzz.h"};
  case 4:
    // A dialect header given with -include.
    return {"-include" METACU_SOURCE_RUNTIME_INCLUDE "/metacu/dma.cuh"};
  default:
    return {};
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  if (Size == 0)
    return 0;
  static const metacu::PipelineOptions Base = [] {
    metacu::PipelineOptions O;
    O.Toolkit = metacu::CudaToolkit::find(METACU_CUDA_ROOT);
    O.RuntimeInclude = METACU_SOURCE_RUNTIME_INCLUDE;
    O.CacheDir = METACU_FUZZ_CACHE_DIR;
    O.OutputName = "fuzz.gen.cu";
    O.Limits.TimeoutSeconds = 10;
    O.Limits.MemoryBytes = uint64_t(512) << 20;
    return O;
  }();
  // Bits 0-1: line breaks; 2: a byte order mark; 3-5: the flags; 6-7 and
  // the flags' choice: the --arch list.
  unsigned Pick = Data[0];
  llvm::StringRef Rest(reinterpret_cast<const char *>(Data + 1), Size - 1);
  const char *Breaks[] = {"\n", "\r\n", "\r", "\n"};
  std::string Text = withLineBreaks(Rest, Breaks[Pick & 3]);
  if (Pick & 4)
    Text = "\xEF\xBB\xBF" + Text;
  metacu::PipelineOptions Opts = Base;
  Opts.Flags.Args = flagsFor((Pick >> 3) & 7);
  auto Archs =
      metacu::ArchList::parse(ArchSpecs[(Pick >> 3) % std::size(ArchSpecs)]);
  if (!Archs) {
    llvm::consumeError(Archs.takeError());
    return 0;
  }
  metacu::SourceFile File("fuzz.cu", std::move(Text));
  auto X = metacu::expandFile(File, *Archs, Opts);
  if (!X) {
    llvm::consumeError(X.takeError());
    return 0;
  }
  // Without meta code (which can compute any byte) the output's text is
  // the input's, read as Clang reads it, and metacu's own.
  llvm::StringRef Out = X->Text;
  if (!Rest.contains('@') &&
      (Out.contains('\r') || Out.contains("\xEF\xBB\xBF")))
    std::abort();
  return 0;
}
