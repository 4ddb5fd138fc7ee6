//===- Gzip.h - Reading and writing files that may be gzip-compressed -----===//
//
// Kernel Tuner's published cache files are often .json.gz. Files are
// recognised by gzip's magic bytes, not by their name, so a renamed file
// still reads.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_TUNE_GZIP_H
#define METACU_TUNE_GZIP_H

#include "support/Output.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace metacu::tune {

bool isGzip(llvm::StringRef Bytes);
/// All members of a gzip stream, concatenated (as gunzip does); an error
/// when they inflate to more than \p Limit bytes.
llvm::Expected<std::string> gunzip(llvm::StringRef Bytes,
                                   uint64_t Limit = UINT64_MAX);
llvm::Expected<std::string> gzip(llvm::StringRef Text);

/// The contents of \p Path (readInputFile(), JSONError.h), decompressed if
/// it is gzip data, to at most MaxInputBytes.
llvm::Expected<std::string> readMaybeGzipFile(llvm::StringRef Path);
/// The file \p Path of \p Text, gzip-compressed when the name ends in
/// ".gz", for writeOutputs().
llvm::Expected<OutputFile> maybeGzipFile(llvm::StringRef Path,
                                         llvm::StringRef Text);

} // namespace metacu::tune

#endif
