//===- ExpandedDocument.cpp -----------------------------------------------===//
#include "lsp/ExpandedDocument.h"

#include "llvm/ADT/StringExtras.h"

namespace metacu {

/// Makes each '#line N' directive of \p Out from \p BodyOffset on whose
/// next line starts (its first byte not a blank) with a piece of \p Map of
/// file \p Own now on line N + \p LineDelta name that line, and moves the
/// pieces with the bytes after it: the directives the emit stage writes
/// when the lines after an edit that added or removed \p LineDelta lines
/// move. Others are left alone (a directive of another file, of a line
/// before the edit).
static void renumberLines(std::string &Out, OutputMap &Map, unsigned BodyOffset,
                          unsigned Own, int LineDelta) {
  if (LineDelta == 0)
    return;
  std::string Renumbered;
  // Where the output's bytes move: from each offset on, by so many.
  std::vector<std::pair<unsigned, int>> Moves;
  size_t Copied = 0;
  int Shift = 0;
  llvm::StringRef Text(Out);
  for (size_t At = BodyOffset; At < Text.size();) {
    size_t Next = std::min(Text.find('\n', At), Text.size()) + 1;
    llvm::StringRef Line = Text.slice(At, Next);
    size_t DigitsAt = At + 6;
    if (Line.consume_front("#line ")) {
      llvm::StringRef Digits = Line.take_while(llvm::isDigit);
      unsigned N = 0;
      size_t First = Text.find_first_not_of(" \t", Next);
      const OutputMap::Piece *P =
          First < Text.size() ? Map.pieceAt(First) : nullptr;
      if (!Digits.getAsInteger(10, N) &&
          Line.drop_front(Digits.size()).starts_with(" ") && P &&
          P->At.File == Own && int64_t(P->At.Line) == int64_t(N) + LineDelta) {
        std::string Number = std::to_string(P->At.Line);
        Renumbered.append(Out, Copied, DigitsAt - Copied);
        Renumbered += Number;
        Copied = DigitsAt + Digits.size();
        Shift += int(Number.size()) - int(Digits.size());
        Moves.push_back({unsigned(Copied), Shift});
      }
    }
    At = Next;
  }
  if (Moves.empty())
    return;
  Renumbered.append(Out, Copied, std::string::npos);
  Out = std::move(Renumbered);
  OutputMap Moved;
  for (const std::string &F : Map.files())
    Moved.fileIndex(F);
  size_t M = 0;
  int By = 0;
  for (OutputMap::Piece P : Map.pieces()) {
    for (; M < Moves.size() && Moves[M].first <= P.OutBegin; ++M)
      By = Moves[M].second;
    P.OutBegin += By;
    P.OutEnd += By;
    Moved.add(P);
  }
  Map = std::move(Moved);
}

ExpandedDocument::ExpandedDocument(
    llvm::StringRef Text, size_t BodyOffset, OutputMap M, llvm::StringRef Path,
    uint64_t Pass, std::vector<std::shared_ptr<const SplicedFile>> Spliced)
    : Body(Text.substr(BodyOffset).str()),
      Prelude(Text.substr(0, BodyOffset).str()), Map(std::move(M)),
      BodyOffset(BodyOffset), Pass(Pass), Spliced(std::move(Spliced)) {
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

llvm::DenseSet<unsigned> ExpandedDocument::liveLines() const {
  llvm::DenseSet<unsigned> Lines;
  if (!Own)
    return Lines;
  for (const OutputMap::Piece &P : Map.pieces())
    if (P.At.Verbatim && P.At.File == *Own && P.OutEnd > P.OutBegin &&
        (P.Passes & Pass))
      Lines.insert(P.At.Line - 1);
  return Lines;
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
                                            Map.files()[*Own], Pass, Spliced);
}

std::shared_ptr<ExpandedDocument>
ExpandedDocument::withEdit(const TextLines &Old, const TextLines &New,
                           unsigned Begin, unsigned End) const {
  llvm::StringRef O = Old.text(), N = New.text();
  int Delta = int(N.size()) - int(O.size());
  if (!Own || End < Begin || End > O.size() || int(End) + Delta < int(Begin))
    return nullptr;
  // The whole lines the edit touches, [From, To) of the old text with the
  // line break of the last, and [From, To + Delta) of the new: what each
  // copy must hold in full. An edit that ends a line where one ended
  // before leaves the next line alone.
  auto LineStart = [&](unsigned Offset) {
    size_t Break = O.substr(0, Offset).rfind('\n');
    return Break == llvm::StringRef::npos ? 0u : unsigned(Break + 1);
  };
  auto NextLine = [&](unsigned Offset) {
    size_t Break = O.find('\n', Offset);
    return Break == llvm::StringRef::npos ? unsigned(O.size())
                                          : unsigned(Break + 1);
  };
  unsigned From = LineStart(Begin);
  bool EndsLine = (End == 0 || O[End - 1] == '\n' || End == O.size()) &&
                  (int(End) + Delta == 0 || N[End + Delta - 1] == '\n');
  unsigned To = EndsLine ? End : NextLine(End);
  if (auto E = withEditOf(Old, New, From, To))
    return E;
  // Lines added or removed between lines, or a line the expansion has no
  // piece of (an empty one) edited: they go with the line before, or else
  // the line after.
  if (From > 0)
    if (auto E = withEditOf(Old, New, LineStart(From - 1), To))
      return E;
  if (To < O.size())
    if (auto E = withEditOf(Old, New, From, NextLine(To)))
      return E;
  // Whole lines removed, seen as a removal across a line break ("a;\n  \n
  // b" to "a;\n  b" is "\n  " removed after the first "  "): the same
  // removal moved back, or else forth, until it takes whole lines, which
  // go from each copy.
  if (Begin != End && int(End) + Delta == int(Begin)) {
    auto WholeLines = [&](unsigned B, unsigned E) {
      return (B == 0 || O[B - 1] == '\n') && O[E - 1] == '\n';
    };
    unsigned B = Begin, E = End;
    while (!WholeLines(B, E) && B > 0 && O[B - 1] == O[E - 1]) {
      --B;
      --E;
    }
    if (!WholeLines(B, E)) {
      B = Begin;
      E = End;
      while (!WholeLines(B, E) && E < O.size() && O[B] == O[E]) {
        ++B;
        ++E;
      }
    }
    if (WholeLines(B, E) && (B != From || E != To))
      return withEditOf(Old, New, B, E);
  }
  // Lines added after a line that has its copies, if not whole ones (a
  // meta value on it): the insertion moved as far back as it goes ("a;\n
  // \n  b" is "a;" and "\n  " added), so that it ends that line.
  if (Begin != End)
    return nullptr;
  llvm::StringRef Added = N.slice(Begin, Begin + Delta);
  auto EndsALine = [&] {
    return Begin < O.size() && O[Begin] == '\n' && Added.starts_with("\n");
  };
  while (!EndsALine() && Begin > 0 && !Added.empty() &&
         O[Begin - 1] == Added.back()) {
    --Begin;
    Added = N.slice(Begin, Begin + Delta);
  }
  if (!EndsALine())
    return nullptr;
  // After blank lines (a line of meta code next, which has no copy): they
  // go after each copy of the line before them, and the lines added after
  // those.
  unsigned LineEnd = Begin;
  auto Blank = [&](unsigned End) {
    size_t Start = O.substr(0, End).rfind('\n');
    return Start != llvm::StringRef::npos &&
           O.slice(Start + 1, End).find_first_not_of(" \t") ==
               llvm::StringRef::npos;
  };
  while (Blank(LineEnd))
    LineEnd = O.substr(0, LineEnd).rfind('\n');
  return withLinesAfter(Old, New, LineEnd, Begin + 1);
}

std::shared_ptr<ExpandedDocument>
ExpandedDocument::withEditOf(const TextLines &Old, const TextLines &New,
                             unsigned From, unsigned To) const {
  llvm::StringRef O = Old.text();
  int Delta = int(New.text().size()) - int(O.size());
  llvm::StringRef Region = O.slice(From, To);

  std::string Whole = Prelude + Body.text().str();
  auto InputOffset = [&](const InputPlace &At) {
    return Old.offset({At.Line - 1, At.Col - 1}, PositionEncoding::UTF8);
  };
  // The copies of the region: output text equal to it, made of verbatim
  // pieces of it in order and the line breaks between them.
  std::vector<Copy> Copies;
  llvm::ArrayRef<OutputMap::Piece> Pieces = Map.pieces();
  size_t InRegion = 0, InCopies = 0;
  for (size_t I = 0; I < Pieces.size(); ++I) {
    const OutputMap::Piece &P = Pieces[I];
    if (P.At.File != *Own)
      continue;
    unsigned In = InputOffset(P.At);
    if (In < From || In >= To)
      continue;
    ++InRegion;
    if (!P.At.Verbatim || In != From)
      continue;
    unsigned Out = P.OutBegin, OutEnd = P.OutBegin + Region.size();
    if (Out < BodyOffset || OutEnd > Whole.size() ||
        llvm::StringRef(Whole).slice(Out, OutEnd) != Region)
      return nullptr;
    unsigned Next = Out;
    size_t J = I;
    for (; J < Pieces.size() && Pieces[J].OutBegin < OutEnd; ++J) {
      const OutputMap::Piece &Q = Pieces[J];
      for (; Next < Q.OutBegin; ++Next)
        if (Whole[Next] != '\n')
          return nullptr;
      if (Q.At.File != *Own || !Q.At.Verbatim || Q.Passes != P.Passes ||
          Q.OutEnd > OutEnd || InputOffset(Q.At) != From + (Q.OutBegin - Out))
        return nullptr;
      Next = Q.OutEnd;
    }
    for (; Next < OutEnd; ++Next)
      if (Whole[Next] != '\n')
        return nullptr;
    Copies.push_back({Out, P.Passes});
    InCopies += J - I;
  }
  // Every place of the region is in a copy (none is generated text, none a
  // copy of a part of it).
  if (Copies.empty() || InCopies != InRegion)
    return nullptr;
  return withCopiesEdited(Old, New, From, To, Copies);
}

std::shared_ptr<ExpandedDocument>
ExpandedDocument::withLinesAfter(const TextLines &Old, const TextLines &New,
                                 unsigned LineEnd, unsigned At) const {
  llvm::StringRef O = Old.text();
  size_t Start = O.substr(0, LineEnd).rfind('\n');
  unsigned LineStart = Start == llvm::StringRef::npos ? 0 : Start + 1;
  std::string Whole = Prelude + Body.text().str();
  // Each copy of the line: its pieces on one output line, the last a
  // verbatim copy of the line's end followed by the output line's break.
  std::vector<Copy> Copies;
  const OutputMap::Piece *Last = nullptr;
  auto EndCopy = [&] {
    if (!Last)
      return true;
    unsigned In = Old.offset({Last->At.Line - 1, Last->At.Col - 1},
                             PositionEncoding::UTF8);
    if (!Last->At.Verbatim || In + (Last->OutEnd - Last->OutBegin) != LineEnd ||
        Last->OutEnd >= Whole.size() || Whole[Last->OutEnd] != '\n' ||
        Last->OutBegin < BodyOffset)
      return false;
    Copies.push_back({Last->OutEnd + 1, Last->Passes});
    Last = nullptr;
    return true;
  };
  for (const OutputMap::Piece &P : Map.pieces()) {
    if (P.At.File != *Own)
      continue;
    unsigned In =
        Old.offset({P.At.Line - 1, P.At.Col - 1}, PositionEncoding::UTF8);
    if (In < LineStart || In >= LineEnd)
      continue;
    // A piece on another output line than the last: the last's copy ends.
    if (Last &&
        llvm::StringRef(Whole).slice(Last->OutEnd, P.OutBegin).contains('\n') &&
        !EndCopy())
      return nullptr;
    Last = &P;
  }
  if (!EndCopy() || Copies.empty())
    return nullptr;
  // The blank lines between, copied as they are after each copy.
  llvm::StringRef Between = O.slice(LineEnd + 1, At);
  for (Copy &C : Copies) {
    if (llvm::StringRef(Whole).substr(C.Out, Between.size()) != Between)
      return nullptr;
    C.Out += Between.size();
  }
  return withCopiesEdited(Old, New, At, At, Copies);
}

std::shared_ptr<ExpandedDocument>
ExpandedDocument::withCopiesEdited(const TextLines &Old, const TextLines &New,
                                   unsigned From, unsigned To,
                                   llvm::ArrayRef<Copy> Copies) const {
  llvm::StringRef O = Old.text();
  int Delta = int(New.text().size()) - int(O.size());
  unsigned RegionSize = To - From;
  llvm::StringRef NewRegion = New.text().slice(From, To + Delta);
  std::string Whole = Prelude + Body.text().str();
  auto InputOffset = [&](const InputPlace &At) {
    return Old.offset({At.Line - 1, At.Col - 1}, PositionEncoding::UTF8);
  };
  llvm::ArrayRef<OutputMap::Piece> Pieces = Map.pieces();
  auto NewPlace = [&](unsigned Offset, bool Verbatim) {
    LspPosition P = New.position(Offset, PositionEncoding::UTF8);
    return InputPlace{*Own, P.Line + 1, P.Character + 1, Verbatim};
  };
  OutputMap NewMap;
  for (const std::string &F : Map.files())
    NewMap.fileIndex(F);
  std::string Out;
  unsigned Copied = 0;
  int Shift = 0;
  // Writes a copy of the region as it is now, a piece per line.
  auto WriteCopy = [&](const Copy &C) {
    Out.append(Whole, Copied, C.Out - Copied);
    unsigned Start = Out.size();
    Out += NewRegion;
    for (unsigned I = 0, Line = 0; I <= NewRegion.size(); ++I)
      if (I == NewRegion.size() || NewRegion[I] == '\n') {
        if (I > Line)
          NewMap.add(
              {Start + Line, Start + I, NewPlace(From + Line, true), C.Passes});
        Line = I + 1;
      }
    Copied = C.Out + RegionSize;
    Shift += Delta;
  };
  size_t C = 0;
  for (const OutputMap::Piece &P : Pieces) {
    while (C < Copies.size() && Copies[C].Out <= P.OutBegin)
      WriteCopy(Copies[C++]);
    if (C > 0 && P.OutBegin < Copies[C - 1].Out + RegionSize)
      continue; // written with its copy
    OutputMap::Piece Q = P;
    Q.OutBegin += Shift;
    Q.OutEnd += Shift;
    if (P.At.File == *Own)
      if (unsigned In = InputOffset(P.At); In >= To)
        Q.At = NewPlace(In + Delta, P.At.Verbatim);
    NewMap.add(Q);
  }
  while (C < Copies.size())
    WriteCopy(Copies[C++]);
  Out.append(Whole, Copied, std::string::npos);
  renumberLines(Out, NewMap, BodyOffset, *Own,
                int(NewRegion.count('\n')) -
                    int(O.slice(From, To).count('\n')));
  return std::make_shared<ExpandedDocument>(Out, BodyOffset, std::move(NewMap),
                                            Map.files()[*Own], Pass, Spliced);
}

} // namespace metacu
