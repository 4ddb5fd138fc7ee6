//===- PresumedLines.h - The input's #line directives Clang keeps ---------===//
//
// A `#line N` of the input (migrate writes them where its chain for this
// build adds lines) renumbers the lines after it for nvcc: `__LINE__`,
// asserts, `-lineinfo`. Where expand writes a `#line` of its own, and in
// its messages, it counts as nvcc does. Which directives count is the
// preprocessor's business, not the text's: one in a block comment, a raw
// string or a branch the preprocessor skips renumbers nothing. The
// preprocessor says which it kept (a file change of kind RenameFile) and
// its line table says what they number (getPresumedLoc); each becomes an
// origin mark of the SourceFile (support/SourceFile.h).
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_PRESUMEDLINES_H
#define METACU_EXPAND_PRESUMEDLINES_H

#include "expand/HostSlice.h"
#include "support/SourceFile.h"

#include "clang/Basic/SourceManager.h"
#include <optional>

namespace metacu {

/// From the first byte of a line on, a file's lines count on from Line.
struct PresumedLine {
  /// Offset in the file's raw text.
  unsigned Offset = 0;
  unsigned Line = 0;
};

/// What the `#line` the preprocessor just kept at \p Loc (the location a
/// RenameFile file change gives) numbers: the line after it and its
/// number, where it names no other file (one that does renames the file
/// for nvcc's messages; metacu keeps the file's own name).
std::optional<PresumedLine> keptLineDirective(const clang::SourceManager &SM,
                                              clang::SourceLocation Loc);

/// \p File with an origin mark after each `#line N` nvcc's host pass keeps
/// in it. Preprocesses it (with \p Opts' flags) only where Clang's raw
/// lexer finds such a directive outside comments and literals: most inputs
/// have none and keep their physical lines.
SourceFile numberAsPreprocessed(const SourceFile &File,
                                const HostSliceOptions &Opts);

} // namespace metacu

#endif
