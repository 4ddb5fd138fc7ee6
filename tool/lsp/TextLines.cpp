//===- TextLines.cpp ------------------------------------------------------===//
#include "lsp/TextLines.h"

#include "llvm/ADT/STLExtras.h"

namespace metacu {

PositionEncoding parseEncoding(llvm::StringRef Name) {
  if (Name == "utf-8")
    return PositionEncoding::UTF8;
  if (Name == "utf-32")
    return PositionEncoding::UTF32;
  return PositionEncoding::UTF16;
}

TextLines::TextLines(std::string T) : Text(std::move(T)) {
  LineStarts.push_back(0);
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
    Ascii &= (unsigned char)Text[I] < 0x80;
  }
}

llvm::StringRef TextLines::line(unsigned Line) const {
  if (Line >= LineStarts.size())
    return {};
  size_t Begin = LineStarts[Line];
  size_t End =
      Line + 1 < LineStarts.size() ? LineStarts[Line + 1] - 1 : Text.size();
  llvm::StringRef L = llvm::StringRef(Text).slice(Begin, End);
  return L.ends_with("\r") ? L.drop_back() : L;
}

/// The bytes of the UTF-8 sequence that starts with \p Lead (1 for a byte
/// that starts none, so that invalid text still advances).
static unsigned sequenceLength(unsigned char Lead) {
  if (Lead >= 0xF0)
    return 4;
  if (Lead >= 0xE0)
    return 3;
  if (Lead >= 0xC0)
    return 2;
  return 1;
}

/// Units of \p E one UTF-8 sequence of \p Bytes bytes counts for.
static unsigned unitsOf(unsigned Bytes, PositionEncoding E) {
  switch (E) {
  case PositionEncoding::UTF8:
    return Bytes;
  case PositionEncoding::UTF16:
    return Bytes == 4 ? 2 : 1;
  case PositionEncoding::UTF32:
    return 1;
  }
  return Bytes;
}

unsigned TextLines::offset(LspPosition P, PositionEncoding E) const {
  if (P.Line >= LineStarts.size())
    return Text.size();
  llvm::StringRef L = line(P.Line);
  if (Ascii) // a unit a byte in every encoding
    return LineStarts[P.Line] + std::min<unsigned>(P.Character, L.size());
  unsigned Units = 0, Byte = 0;
  while (Byte < L.size() && Units < P.Character) {
    unsigned N = std::min<unsigned>(sequenceLength(L[Byte]), L.size() - Byte);
    Units += unitsOf(N, E);
    Byte += N;
  }
  return LineStarts[P.Line] + Byte;
}

LspPosition TextLines::position(unsigned Offset, PositionEncoding E) const {
  Offset = std::min<unsigned>(Offset, Text.size());
  unsigned Line =
      llvm::upper_bound(LineStarts, Offset) - LineStarts.begin() - 1;
  if (Ascii)
    return {Line, Offset - LineStarts[Line]};
  llvm::StringRef L = line(Line);
  unsigned Want = Offset - LineStarts[Line], Units = 0, Byte = 0;
  while (Byte < Want && Byte < L.size()) {
    unsigned N = std::min<unsigned>(sequenceLength(L[Byte]), L.size() - Byte);
    Units += unitsOf(N, E);
    Byte += N;
  }
  return {Line, Units + (Want > Byte ? Want - Byte : 0)};
}

} // namespace metacu
