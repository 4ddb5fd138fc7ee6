//===- TextLines.h - LSP positions in a text ------------------------------===//
//
// LSP positions are a 0-based line and a column counted in the encoding the
// client and server agreed on (UTF-16 code units unless both take UTF-8 or
// UTF-32); metacu's places are bytes. This table converts between the two
// for one text.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_LSP_TEXTLINES_H
#define METACU_LSP_TEXTLINES_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace metacu {

enum class PositionEncoding { UTF8, UTF16, UTF32 };

/// The encoding an LSP "positionEncoding" value names (UTF-16 for any other).
PositionEncoding parseEncoding(llvm::StringRef Name);

/// An LSP position: 0-based line, column in the agreed encoding.
struct LspPosition {
  unsigned Line = 0, Character = 0;
};

class TextLines {
public:
  explicit TextLines(std::string Text);

  llvm::StringRef text() const { return Text; }
  unsigned lineCount() const { return LineStarts.size(); }
  /// The text of 0-based line \p Line, without its line break.
  llvm::StringRef line(unsigned Line) const;

  /// The byte offset of \p P; a line or column past the end is clamped to
  /// it, as LSP asks.
  unsigned offset(LspPosition P, PositionEncoding E) const;
  /// The position of byte \p Offset.
  LspPosition position(unsigned Offset, PositionEncoding E) const;

private:
  std::string Text;
  std::vector<unsigned> LineStarts;
  /// Whether every byte is ASCII: a column is then the byte's in every
  /// encoding, found without walking the line (an expansion's map asks
  /// for tens of thousands).
  bool Ascii = true;
};

} // namespace metacu

#endif
