//===- SplicedFiles.cpp ---------------------------------------------------===//
#include "lsp/SplicedFiles.h"
#include "support/Tokens.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

namespace metacu {

std::optional<UserPlace> SplicedFile::toUser(unsigned Offset) const {
  auto At = Map.toInput(Offset);
  if (!At)
    return std::nullopt;
  return UserPlace{Map.files()[At->File], At->Line - 1, At->Col - 1,
                   At->Verbatim};
}

namespace {

using Piece = OutputMap::Piece;

/// Whole lines [Begin, End) of an expansion.
struct Stretch {
  unsigned Begin, End;
};

/// Whether the line ending at \p LineEnd (its line break, or the end) of
/// \p Text goes on to the next: a backslash, maybe followed by white space,
/// which Clang takes for a continuation too.
bool continues(llvm::StringRef Text, size_t LineEnd) {
  size_t Start = Text.substr(0, LineEnd).rfind('\n');
  Start = Start == llvm::StringRef::npos ? 0 : Start + 1;
  return Text.slice(Start, LineEnd).rtrim(" \t\r\f\v").ends_with("\\");
}

/// Whether \p Toks, a stretch lexed alone, close every bracket outside
/// directives and every conditional directive they open, and continue none
/// they did not open.
bool closesWhatItOpens(llvm::ArrayRef<Token> Toks) {
  int Depth = 0;
  for (size_t I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (!T.InDirective && (T.isOpenBracket() || T.isCloseBracket()) &&
        !T.Partner)
      return false;
    if (!T.is(clang::tok::hash) || !T.StartOfLine || I + 1 == Toks.size() ||
        Toks[I + 1].StartOfLine)
      continue;
    const Token &Name = Toks[I + 1];
    if (Name.isIdent("if") || Name.isIdent("ifdef") || Name.isIdent("ifndef"))
      ++Depth;
    else if (Name.isIdent("endif") && --Depth < 0)
      return false;
    else if ((Name.isIdent("else") || Name.isIdent("elif") ||
              Name.isIdent("elifdef") || Name.isIdent("elifndef")) &&
             Depth == 0)
      return false;
  }
  return Depth == 0;
}

/// Whether the tokens of \p Body in [\p Begin, \p End) are \p Alone (the
/// stretch lexed by itself, offsets from \p Begin), and none of the body's
/// lies across its start: no comment or literal open before the stretch
/// ends inside it (its end would lex as tokens alone).
bool lexesAlike(llvm::ArrayRef<Token> Body, llvm::ArrayRef<Token> Alone,
                unsigned Begin, unsigned End) {
  auto First = llvm::partition_point(
      Body, [&](const Token &T) { return T.end() <= Begin; });
  size_t I = First - Body.begin();
  if (I < Body.size() && Body[I].Offset < Begin)
    return false;
  for (const Token &A : Alone) {
    if (I == Body.size())
      return false;
    const Token &B = Body[I++];
    if (B.Kind != A.Kind || B.Offset != Begin + A.Offset ||
        B.Length != A.Length)
      return false;
  }
  return I == Body.size() || Body[I].Offset >= End;
}

/// Whether \p Lines, lexed alone, ends outside any comment or literal:
/// a word after it is a token of its own.
bool endsClosed(llvm::StringRef Lines) {
  std::string Probe = Lines.str() + "metacu_end";
  std::vector<Token> Toks = lexRaw(Probe);
  return !Toks.empty() && Toks.back().isIdent("metacu_end") &&
         Toks.back().Offset == Lines.size();
}

/// A part of a stretch replaced: [Begin, Begin + Length) by Text.
struct Replacement {
  unsigned Begin, Length;
  std::string Text;
};

/// The quoted names in \p Toks (a stretch lexed alone) that #include,
/// #import or __has_include look up and that open beside \p Own, made
/// absolute paths of that file.
std::vector<Replacement> absoluteIncludes(llvm::ArrayRef<Token> Toks,
                                          llvm::StringRef Own) {
  std::vector<Replacement> Out;
  llvm::StringRef OwnDir = llvm::sys::path::parent_path(Own);
  for (size_t I = 0; I + 2 < Toks.size(); ++I) {
    const Token &Name = Toks[I + 2];
    bool Directive =
        Toks[I].is(clang::tok::hash) && Toks[I].StartOfLine &&
        (Toks[I + 1].isIdent("include") || Toks[I + 1].isIdent("import"));
    bool HasInclude =
        Toks[I].isIdent("__has_include") && Toks[I + 1].is(clang::tok::l_paren);
    if (!(Directive || HasInclude) || !Name.is(clang::tok::string_literal) ||
        !Name.Text.starts_with("\"") || Name.Text.size() < 3)
      continue;
    llvm::StringRef Written = Name.Text.drop_front().drop_back();
    if (llvm::sys::path::is_absolute(Written))
      continue;
    llvm::SmallString<256> Path(OwnDir);
    llvm::sys::path::append(Path, Written);
    if (llvm::StringRef(Path).find_first_of("\"\n") != llvm::StringRef::npos ||
        !llvm::sys::fs::exists(Path) || llvm::sys::fs::is_directory(Path))
      continue;
    Out.push_back({Name.Offset, Name.Length, "\"" + Path.str().str() + "\""});
  }
  return Out;
}

} // namespace

SplitExpansion splitSplicedText(llvm::StringRef Text, size_t BodyOffset,
                                const OutputMap &Map, llvm::StringRef Own,
                                llvm::StringRef Dir) {
  SplitExpansion Out;
  llvm::ArrayRef<Piece> Pieces = Map.pieces();
  std::optional<unsigned> OwnIndex;
  for (unsigned I = 0; I < Map.files().size(); ++I)
    if (Map.files()[I] == Own)
      OwnIndex = I;
  // The stretches: from a line with a byte of another file than Own to the
  // last such line before one with a byte of Own.
  std::vector<Stretch> Stretches;
  if (OwnIndex && !Dir.empty() &&
      Dir.find_first_of("\"\n") == llvm::StringRef::npos) {
    size_t P =
        llvm::partition_point(
            Pieces, [&](const Piece &Q) { return Q.OutBegin < BodyOffset; }) -
        Pieces.begin();
    std::optional<unsigned> Begin;
    unsigned LastOther = 0;
    for (size_t Start = BodyOffset; Start < Text.size();) {
      size_t Break = Text.find('\n', Start);
      size_t End = Break == llvm::StringRef::npos ? Text.size() : Break + 1;
      bool HasOwn = false, HasOther = false;
      for (; P < Pieces.size() && Pieces[P].OutBegin < End; ++P)
        (Pieces[P].At.File == *OwnIndex ? HasOwn : HasOther) = true;
      if (HasOwn && Begin) {
        Stretches.push_back({*Begin, LastOther});
        Begin.reset();
      } else if (HasOther && !HasOwn) {
        if (!Begin)
          Begin = Start;
        LastOther = End;
      }
      Start = End;
    }
    if (Begin)
      Stretches.push_back({*Begin, LastOther});
  }
  // The body up to the last stretch's end, lexed: what is open where a
  // stretch starts shows in its tokens.
  std::string Body = Stretches.empty()
                         ? std::string()
                         : Text.slice(BodyOffset, Stretches.back().End).str();
  std::vector<Token> BodyToks = lexRaw(Body);

  size_t NextPiece = 0;
  int Shift = 0;
  size_t Copied = 0;
  auto CopyUpTo = [&](unsigned Offset) {
    Out.Text.append(Text.data() + Copied, Offset - Copied);
    Copied = Offset;
    for (; NextPiece < Pieces.size() && Pieces[NextPiece].OutBegin < Offset;
         ++NextPiece) {
      Piece Q = Pieces[NextPiece];
      Q.OutBegin += Shift;
      Q.OutEnd += Shift;
      Out.Map.add(Q);
    }
  };
  for (const std::string &F : Map.files())
    Out.Map.fileIndex(F);
  for (const Stretch &S : Stretches) {
    llvm::StringRef Lines = Text.slice(S.Begin, S.End);
    if (!Lines.ends_with("\n") ||
        (S.Begin > 0 && continues(Text, S.Begin - 1)) ||
        continues(Text, S.End - 1))
      continue;
    std::string Alone = Lines.str();
    std::vector<Token> Toks = lexRaw(Alone);
    if (!lexesAlike(BodyToks, Toks, S.Begin - BodyOffset, S.End - BodyOffset) ||
        !endsClosed(Lines) || !closesWhatItOpens(Toks))
      continue;
    std::vector<Replacement> Names = absoluteIncludes(Toks, Own);

    // The file: the stretch with its names replaced, and the map of what
    // is left of its pieces, each cut where a name was replaced.
    auto File = std::make_shared<SplicedFile>(
        SplicedFile{"", TextLines(""), OutputMap()});
    std::string Contents;
    size_t From = 0;
    for (const Replacement &R : Names) {
      Contents += Lines.slice(From, R.Begin);
      Contents += R.Text;
      From = R.Begin + R.Length;
    }
    Contents += Lines.substr(From);
    auto Local = [&](unsigned Offset) { // offset of the stretch -> of File
      int Delta = 0;
      for (const Replacement &R : Names)
        if (R.Begin < Offset)
          Delta += int(R.Text.size()) - int(R.Length);
      return unsigned(int(Offset) + Delta);
    };
    std::string Key = Contents;
    for (size_t I = NextPiece; I < Pieces.size() && Pieces[I].OutBegin < S.End;
         ++I) {
      const Piece &P = Pieces[I];
      if (P.OutBegin < S.Begin)
        continue;
      unsigned Begin = P.OutBegin - S.Begin, End = P.OutEnd - S.Begin;
      // The parts of the piece outside the names replaced.
      std::vector<std::pair<unsigned, unsigned>> Kept{{Begin, End}};
      for (const Replacement &R : Names) {
        std::vector<std::pair<unsigned, unsigned>> Next;
        for (auto [B, E] : Kept) {
          if (B < std::min(E, R.Begin))
            Next.push_back({B, std::min(E, R.Begin)});
          if (std::max(B, R.Begin + R.Length) < E)
            Next.push_back({std::max(B, R.Begin + R.Length), E});
        }
        Kept = std::move(Next);
      }
      for (auto [B, E] : Kept) {
        InputPlace At = P.At;
        At.File = File->Map.fileIndex(Map.files()[P.At.File]);
        if (At.Verbatim)
          At.Col += B - Begin;
        File->Map.add({Local(B), Local(E), At, P.Passes});
        Key += "\n" + Map.files()[P.At.File] + ":" + std::to_string(At.Line) +
               ":" + std::to_string(At.Col) + ":" + std::to_string(Local(B)) +
               "-" + std::to_string(Local(E)) + (At.Verbatim ? "v" : "g") +
               std::to_string(P.Passes);
      }
    }
    File->Path = (Dir + "/" +
                  llvm::utohexstr(llvm::xxh3_64bits(Key), /*LowerCase=*/true,
                                  /*Width=*/16) +
                  ".cuh")
                     .str();
    File->Text = TextLines(std::move(Contents));

    CopyUpTo(S.Begin);
    std::string Include = "#include \"" + File->Path + "\"\n";
    Out.Text += Include;
    Copied = S.End;
    while (NextPiece < Pieces.size() && Pieces[NextPiece].OutBegin < S.End)
      ++NextPiece;
    Shift += int(Include.size()) - int(S.End - S.Begin);
    if (llvm::none_of(Out.Files,
                      [&](const auto &F) { return F->Path == File->Path; }))
      Out.Files.push_back(std::move(File));
  }
  CopyUpTo(Text.size());
  return Out;
}

} // namespace metacu
