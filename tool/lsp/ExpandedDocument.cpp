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

std::shared_ptr<ExpandedDocument>
ExpandedDocument::withLineEdit(unsigned Line, unsigned Begin, unsigned End,
                               llvm::StringRef Text) const {
  if (!Own || End < Begin)
    return nullptr;
  // 1-based columns of the edit, as the map has them.
  unsigned From = Begin + 1, To = End + 1;
  int Delta = int(Text.size()) - int(End - Begin);
  std::vector<const OutputMap::Piece *> Copies;
  for (const OutputMap::Piece &P : Map.pieces()) {
    if (P.At.File != *Own || P.At.Line != Line + 1)
      continue;
    unsigned Length = P.OutEnd - P.OutBegin;
    unsigned PieceEnd = P.At.Col + (P.At.Verbatim ? Length : 1);
    bool Overlaps = P.At.Col < To && From < PieceEnd;
    bool Holds = P.At.Verbatim && P.At.Col <= From && To <= P.At.Col + Length;
    // A copy ending where the next begins holds an insertion there once.
    if (Holds && !Copies.empty() && Copies.back()->OutEnd == P.OutBegin &&
        From == P.At.Col)
      continue;
    if (Holds)
      Copies.push_back(&P);
    else if (Overlaps || (!P.At.Verbatim && From <= P.At.Col && P.At.Col < To))
      return nullptr;
  }
  if (Copies.empty())
    return nullptr;
  std::string Whole = Prelude + Body.text().str();
  OutputMap New;
  for (const std::string &F : Map.files())
    New.fileIndex(F);
  int Shift = 0;
  size_t Next = 0;
  std::string Out;
  unsigned Copied = 0;
  for (const OutputMap::Piece &P : Map.pieces()) {
    OutputMap::Piece Q = P;
    Q.OutBegin += Shift;
    Q.OutEnd += Shift;
    if (Q.At.File == *Own && Q.At.Line == Line + 1 && Q.At.Col >= To)
      Q.At.Col += Delta;
    if (Next < Copies.size() && Copies[Next] == &P) {
      unsigned At = P.OutBegin + (From - P.At.Col);
      Out.append(Whole, Copied, At - Copied);
      Out += Text;
      Copied = At + (End - Begin);
      Q.OutEnd += Delta;
      Shift += Delta;
      ++Next;
    }
    New.add(Q);
  }
  Out.append(Whole, Copied, std::string::npos);
  return std::make_shared<ExpandedDocument>(Out, BodyOffset, std::move(New),
                                            Map.files()[*Own], Pass);
}

} // namespace metacu
