//===- LineTable.h - A file's lines as Clang splits them ------------------===//
//
// migrate edits whole directive lines and audit reports line numbers. Both
// must see the lines Clang and nvcc see: a lone CR, an LF and a CRLF each
// end a line, and a UTF-8 byte order mark before the first line is no part
// of it. The table comes from Clang's own SourceManager, so it cannot
// drift from the preprocessor's line numbers.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_MIGRATE_LINETABLE_H
#define METACU_MIGRATE_LINETABLE_H

#include "llvm/ADT/StringRef.h"
#include <vector>

namespace metacu {

class LineTable {
public:
  /// The lines of \p Text, which must outlive the table.
  explicit LineTable(llvm::StringRef Text);

  /// The number of lines; an empty line after the last line break is none.
  unsigned size() const { return Starts.size(); }
  /// The line (from 1) that holds byte \p Offset, its line break included.
  unsigned lineOf(unsigned Offset) const;
  /// The first byte of \p Line (after a byte order mark on line 1).
  unsigned begin(unsigned Line) const { return Starts[Line - 1]; }
  /// Past \p Line's line break.
  unsigned end(unsigned Line) const {
    return Line < size() ? Starts[Line] : Text.size();
  }
  /// Where \p Line's line break starts.
  unsigned contentEnd(unsigned Line) const;
  /// \p Line without its line break.
  llvm::StringRef text(unsigned Line) const {
    return Text.slice(begin(Line), contentEnd(Line));
  }
  /// \p Line's own line break: "\n", "\r\n", "\r", or "" for a last line
  /// without one.
  llvm::StringRef lineBreak(unsigned Line) const {
    return Text.slice(contentEnd(Line), end(Line));
  }

private:
  llvm::StringRef Text;
  std::vector<unsigned> Starts;
};

} // namespace metacu

#endif
