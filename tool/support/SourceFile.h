//===- SourceFile.h - The input file and its line table -------------------===//
//
// Every stage refers to the input by byte offset; this class turns offsets
// into the line:column positions users see in diagnostics and #line
// directives.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_SOURCEFILE_H
#define METACU_SUPPORT_SOURCEFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace metacu {

struct LineCol {
  unsigned Line = 0; // 1-based
  unsigned Col = 0;  // 1-based, in bytes
};

class SourceFile {
public:
  /// \p Path is kept as spelled by the user: it is what diagnostics and
  /// #line directives show.
  SourceFile(std::string Path, std::string Text);

  static llvm::Expected<SourceFile> load(llvm::StringRef Path);

  llvm::StringRef path() const { return Path; }
  /// The contents; always followed by a NUL, as clang::Lexer requires.
  llvm::StringRef text() const { return Text; }
  const char *data() const { return Text.c_str(); }
  unsigned size() const { return Text.size(); }

  LineCol lineCol(unsigned Offset) const;
  unsigned line(unsigned Offset) const { return lineCol(Offset).Line; }
  /// The text of the line holding \p Offset, without its newline.
  llvm::StringRef lineText(unsigned Offset) const;
  /// Offset of the first byte of the line holding \p Offset.
  unsigned lineStart(unsigned Offset) const;
  /// Offset of the given 1-based line's first byte (clamped to the end).
  unsigned offsetOfLine(unsigned Line) const;

private:
  std::string Path;
  std::string Text;
  std::vector<unsigned> LineStarts;
};

} // namespace metacu

#endif
