//===- Output.h - Writing the files a run produces ------------------------===//
//
// metacu sits in every build of a project, so a failed run must leave the
// files it would have written as they were: outputs are staged next to
// their destination and only put in place once every one of them is ready.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_OUTPUT_H
#define METACU_SUPPORT_OUTPUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace metacu {

struct OutputFile {
  /// Where it goes: "-" is stdout.
  std::string Path;
  std::string Contents;
};

/// Writes every file of \p Files or none. Each regular file is written
/// through a temporary file in its directory and a rename, so readers never
/// see half a file; a destination that exists and is not a regular file (a
/// FIFO, a device) is written through, not replaced; stdout is written last.
/// If any temporary file cannot be written, or a destination is a read-only
/// file, nothing is touched.
llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files);

/// writeOutputs() of one file.
llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Contents);

} // namespace metacu

#endif
