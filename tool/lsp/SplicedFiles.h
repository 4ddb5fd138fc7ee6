//===- SplicedFiles.h - Dialect headers' text as files clangd includes ----===//
//
// The expansion writes the dialect headers a file includes (<metacu/dma.cuh>)
// in place of their #include. clangd keeps precompiled only the preamble of
// the text it holds, its leading run of preprocessor directives, and parses
// the rest again on every edit: text spliced among the #includes ends the
// preamble, so each edit reparsed the header's expansion and every #include
// after it. Each stretch of the expansion written from dialect headers goes
// to clangd instead as a file of its own that the expansion #includes in
// its place, so that the preamble covers it. The file is named by its
// contents: a stretch that changes is a new file and a new #include line,
// and clangd, which checks a preamble's files by size and modification
// second only, never reuses a stale one. Each file keeps the map of its
// bytes back to the headers.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_SPLICEDFILES_H
#define METACU_LSP_SPLICEDFILES_H

#include "expand/OutputMap.h"
#include "lsp/ExpandedDocument.h"
#include "lsp/TextLines.h"

#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace metacu {

/// A stretch of an expansion written from dialect headers, as a file.
struct SplicedFile {
  /// Where clangd reads it (absolute).
  std::string Path;
  TextLines Text;
  /// Its bytes' places, by its own offsets.
  OutputMap Map;

  /// Where byte \p Offset was written from; none for directives the emit
  /// stage wrote and the names of the #includes rewritten (see below).
  std::optional<UserPlace> toUser(unsigned Offset) const;
};

/// An expansion with its spliced stretches moved out.
struct SplitExpansion {
  /// The expansion, each stretch replaced by '#include "Path"'.
  std::string Text;
  /// The map of Text.
  OutputMap Map;
  std::vector<std::shared_ptr<const SplicedFile>> Files;
};

/// Moves out of the body of expansion \p Text (from \p BodyOffset on; the
/// prelude before it stays) of the file \p Own, whose map is \p Map, each
/// stretch of whole lines written from other files than \p Own (dialect
/// headers): from a line with a byte of theirs to the last such line
/// before one with a byte of \p Own, the lines between written by no one
/// (the emit stage's directives) included. It becomes a file in directory
/// \p Dir, named by its contents and map, when it reads as a file of its
/// own: every comment, literal, bracket and conditional directive in it
/// ends in it, and no line continues across its ends. A quoted name that
/// the stretch #includes (or asks __has_include of) and that opens beside
/// \p Own, where the expansion looked it up first, is made that file's
/// absolute path: from \p Dir it would not open there.
SplitExpansion splitSplicedText(llvm::StringRef Text, size_t BodyOffset,
                                const OutputMap &Map, llvm::StringRef Own,
                                llvm::StringRef Dir);

} // namespace metacu

#endif
