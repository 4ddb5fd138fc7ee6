//===- ExpandedDocument.cpp -----------------------------------------------===//
#include "lsp/ExpandedDocument.h"

namespace metacu {

ExpandedDocument::ExpandedDocument(llvm::StringRef Text, size_t BodyOffset,
                                   OutputMap M, llvm::StringRef Path,
                                   uint64_t Pass)
    : Body(Text.substr(BodyOffset).str()),
      Prelude(Text.substr(0, BodyOffset).str()), Map(std::move(M)),
      BodyOffset(BodyOffset), Pass(Pass) {
  for (unsigned I = 0; I < Map.files().size(); ++I)
    if (Map.files()[I] == Path)
      Own = I;
}

std::optional<UserPlace> ExpandedDocument::toUser(unsigned Offset) const {
  auto At = Map.toInput(Offset + BodyOffset);
  if (!At)
    return std::nullopt;
  return UserPlace{Map.files()[At->File], At->Line - 1, At->Col - 1,
                   At->Verbatim};
}

bool ExpandedDocument::live(unsigned Offset) const {
  const OutputMap::Piece *P = Map.pieceAt(Offset + BodyOffset);
  return !P || (P->Passes & Pass);
}

std::optional<unsigned> ExpandedDocument::toBody(unsigned Line,
                                                 unsigned Col) const {
  if (!Own)
    return std::nullopt;
  auto Copies = Map.toOutput(*Own, Line + 1, Col + 1);
  if (Copies.empty())
    return std::nullopt;
  for (auto [Offset, Passes] : Copies)
    if (Passes & Pass)
      return Offset - BodyOffset;
  return Copies.front().first - BodyOffset;
}

std::optional<std::string> ExpandedDocument::generatedAt(unsigned Line,
                                                         unsigned Col) const {
  if (!Own)
    return std::nullopt;
  std::optional<std::string> Found;
  for (const OutputMap::Piece &P : Map.pieces()) {
    if (P.At.Verbatim || P.At.File != *Own || P.At.Line != Line + 1 ||
        P.At.Col != Col + 1)
      continue;
    std::string Text =
        Body.text()
            .slice(P.OutBegin - BodyOffset, P.OutEnd - BodyOffset)
            .trim()
            .str();
    if (Text.empty())
      continue;
    if (P.Passes & Pass)
      return Text;
    if (!Found)
      Found = Text;
  }
  return Found;
}

} // namespace metacu
