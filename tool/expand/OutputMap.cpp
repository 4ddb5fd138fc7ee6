//===- OutputMap.cpp ------------------------------------------------------===//
#include "expand/OutputMap.h"

#include "llvm/ADT/STLExtras.h"

namespace metacu {

unsigned OutputMap::fileIndex(llvm::StringRef Path) {
  for (unsigned I = 0; I < Files.size(); ++I)
    if (Files[I] == Path)
      return I;
  Files.push_back(Path.str());
  return Files.size() - 1;
}

void OutputMap::shift(unsigned Delta) {
  for (Piece &P : Pieces) {
    P.OutBegin += Delta;
    P.OutEnd += Delta;
  }
}

const OutputMap::Piece *OutputMap::pieceAt(unsigned Offset) const {
  auto It = llvm::upper_bound(Pieces, Offset, [](unsigned O, const Piece &P) {
    return O < P.OutBegin;
  });
  if (It == Pieces.begin())
    return nullptr;
  const Piece &P = *std::prev(It);
  return Offset < P.OutEnd ? &P : nullptr;
}

std::optional<InputPlace> OutputMap::toInput(unsigned Offset) const {
  const Piece *P = pieceAt(Offset);
  if (!P)
    return std::nullopt;
  InputPlace At = P->At;
  if (At.Verbatim)
    At.Col += Offset - P->OutBegin;
  return At;
}

std::vector<std::pair<unsigned, uint64_t>>
OutputMap::toOutput(unsigned File, unsigned Line, unsigned Col) const {
  std::vector<std::pair<unsigned, uint64_t>> Found;
  for (const Piece &P : Pieces)
    if (P.At.Verbatim && P.At.File == File && P.At.Line == Line &&
        Col >= P.At.Col && Col - P.At.Col <= P.OutEnd - P.OutBegin)
      Found.push_back({P.OutBegin + (Col - P.At.Col), P.Passes});
  return Found;
}

} // namespace metacu
