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
/// FIFO, a device) is written through, not replaced; a symbolic link is
/// followed, its target replaced and the link kept; stdout is written last.
/// Nothing is touched when any temporary file cannot be written, when a
/// destination is a read-only file or a link to a missing file, or when
/// checkOutputPaths() refuses the destinations.
llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files,
                         llvm::ArrayRef<std::string> ReadPaths);
/// writeOutputs() of files that no file the run read could be.
llvm::Error writeOutputs(llvm::ArrayRef<OutputFile> Files);

/// writeOutputs() of one file.
llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Contents,
                        llvm::ArrayRef<std::string> ReadPaths = {});

/// Refuses an output path ("-" aside) that is the same file as one of
/// \p ReadPaths (the files the run read: overwriting one destroys what the
/// output was made from) or as another output, by identity: device and
/// inode, through links, '..' and hard links, not by spelling. What
/// writeOutputs() checks, for a file written otherwise (a journal appended
/// to) or before a long run.
llvm::Error checkOutputPaths(llvm::ArrayRef<std::string> Outputs,
                             llvm::ArrayRef<std::string> ReadPaths);

} // namespace metacu

#endif
