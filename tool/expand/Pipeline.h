//===- Pipeline.h - One input through every stage of the expansion --------===//
//
// scan -> host slice -> check -> lower -> execute -> emit, for one input
// with its options (an input that includes dialect headers runs them again
// with the headers spliced in, DialectHeaders.h), in one call that prints
// nothing: the expansion comes back with the files it read and how long each
// stage took, or as errors placed in the user's file. The expand subcommand is
// a thin user of it; subcommands that expand many inputs (tune, report) call it
// once each, in one process.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_PIPELINE_H
#define METACU_EXPAND_PIPELINE_H

#include "expand/Execute.h"
#include "expand/OutputMap.h"
#include "support/Isolation.h"
#include "support/SourceFile.h"
#include "toolchain/Arch.h"
#include "toolchain/CompileFlags.h"
#include "toolchain/CudaToolkit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"
#include <string>
#include <vector>

namespace metacu {

/// What every stage needs, and more.
struct PipelineOptions : ExecuteOptions {
  /// The output's file name, for the message of the architecture guard.
  std::string OutputName;
  /// Where to write the generator program once it is lowered, if anywhere:
  /// before it runs, so it is there to read when it fails.
  llvm::raw_ostream *DumpGenerator = nullptr;
  /// Parse the output with Clang for every pass (Verify.h); its errors fail
  /// the expansion.
  bool Verify = false;
  /// Emit the untagged helpers device code calls __host__ __device__
  /// (Untagged.h).
  bool UntaggedHelpers = true;
};

struct StageTime {
  /// "scan" (or "scan and meta macros" where expand/MetaMacros.h expanded
  /// some), "host slice", "lower", "execute" or "emit". Where the
  /// interpreter is kept (ExecuteOptions::KeepInterpreter), "execute"
  /// says how the program was compiled (Expansion::Compiled): "execute"
  /// in an interpreter started for it, "execute in a kept interpreter",
  /// "execute keeping its start", "execute keeping its start on kept
  /// headers", "execute from a kept start". An input that
  /// includes a dialect header has the scan and host slice that found it,
  /// then "dialect headers" (the splice), then every stage again on the
  /// splice (where the splice finds none, the input's own stages go on:
  /// a second "host slice" times the checks after it).
  llvm::StringRef Stage;
  /// Wall-clock time.
  double Milliseconds = 0;
  /// CPU time: of the thread that ran the stage, and of the processes it
  /// waited for (execute's, which compile and run the generator). On a
  /// machine other work shares, the part of the wall-clock time that is
  /// the stage's own.
  double CpuMilliseconds = 0;
};

struct ExpandedFile {
  /// The generated CUDA file.
  std::string Text;
  /// Where its expanded code starts, after the prelude (nvvm_arch_t, the
  /// architecture guard).
  size_t BodyOffset = 0;
  /// Where each part of Text was written from (an editor's positions).
  OutputMap Map;
  /// Every file the expansion read: the input as given, then the headers
  /// the preprocessor read and the data files meta code read, as real
  /// paths (a build tool could not follow '..' after a symbolic link).
  std::vector<std::string> Dependencies;
  /// The stages in the order they ran.
  std::vector<StageTime> Timings;
};

/// Expands \p File for \p Archs. Errors in the input are SourceErrors
/// (support/Diagnostic.h). The file may have any line breaks Clang reads
/// (LF, CRLF, CR) and a byte order mark; the output has LF and none.
llvm::Expected<ExpandedFile> expandFile(const SourceFile &File,
                                        const ArchList &Archs,
                                        const PipelineOptions &Opts);

/// Loads \p Path and expands it.
llvm::Expected<ExpandedFile> expandFile(llvm::StringRef Path,
                                        const ArchList &Archs,
                                        const PipelineOptions &Opts);

} // namespace metacu

#endif
