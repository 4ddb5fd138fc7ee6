//===- Documents.cpp ------------------------------------------------------===//
#include "lsp/Documents.h"
#include "expand/MetaMacros.h"
#include "expand/MetaNames.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"
#include "support/Tokens.h"

#include "llvm/ADT/StringExtras.h"

namespace metacu {

llvm::Expected<std::string> applyChange(const TextLines &Text,
                                        const llvm::json::Object &Change,
                                        PositionEncoding E) {
  auto New = Change.getString("text");
  if (!New)
    return llvm::createStringError("didChange: a change without 'text'");
  const llvm::json::Object *Range = Change.getObject("range");
  if (!Range)
    return New->str();
  auto Pos = [&](llvm::StringRef Key) -> std::optional<unsigned> {
    const llvm::json::Object *P = Range->getObject(Key);
    if (!P)
      return std::nullopt;
    auto L = P->getInteger("line"), C = P->getInteger("character");
    if (!L || !C || *L < 0 || *C < 0)
      return std::nullopt;
    return Text.offset({unsigned(*L), unsigned(*C)}, E);
  };
  auto Begin = Pos("start"), End = Pos("end");
  if (!Begin || !End || *End < *Begin)
    return llvm::createStringError("didChange: a change with a bad range");
  llvm::StringRef T = Text.text();
  return (T.substr(0, *Begin) + *New + T.substr(*End)).str();
}

TextEdit difference(llvm::StringRef Old, llvm::StringRef New) {
  size_t Prefix = 0, Max = std::min(Old.size(), New.size());
  while (Prefix < Max && Old[Prefix] == New[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < Max - Prefix &&
         Old[Old.size() - 1 - Suffix] == New[New.size() - 1 - Suffix])
    ++Suffix;
  return {unsigned(Prefix), unsigned(Old.size() - Suffix),
          New.slice(Prefix, New.size() - Suffix).str()};
}

TextEdit movedBack(llvm::StringRef Old, const TextEdit &E) {
  TextEdit Back = E;
  if (E.Begin != E.End && E.Text.empty()) {
    while (Back.Begin > 0 && Old[Back.Begin - 1] == Old[Back.End - 1]) {
      --Back.Begin;
      --Back.End;
    }
  } else if (E.Begin == E.End && !E.Text.empty()) {
    // Rotated: what is inserted one byte earlier ends in the byte it moved
    // over.
    while (Back.Begin > 0 && Old[Back.Begin - 1] == Back.Text.back()) {
      Back.Text =
          Old[Back.Begin - 1] + Back.Text.substr(0, Back.Text.size() - 1);
      --Back.Begin;
      --Back.End;
    }
  }
  return Back;
}

static bool isWordChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// Whether the line of \p Text holding \p Offset is a directive's or part
/// of a line continued with a backslash.
static bool inDirectiveOrContinued(llvm::StringRef Text, size_t Offset) {
  size_t Begin = Text.substr(0, Offset).rfind('\n');
  Begin = Begin == llvm::StringRef::npos ? 0 : Begin + 1;
  size_t End = std::min(Text.find('\n', Offset), Text.size());
  llvm::StringRef Line = Text.slice(Begin, End);
  return Line.ltrim().starts_with("#") || Line.ends_with("\\") ||
         (Begin > 0 && Text.substr(0, Begin - 1).ends_with("\\"));
}

/// Whether \p New (lexed: \p NewToks) lexes as \p Old after the lines
/// \p E touches (a comment or literal it opens or closes would change
/// what follows), and has no '@' nor 'codegen' on them (it may uncover a
/// construct).
static bool lexesAlikeAfterTheEdit(llvm::StringRef Old,
                                   llvm::ArrayRef<Token> NewToks,
                                   const TextEdit &E) {
  int Delta = int(E.Text.size()) - int(E.End - E.Begin);
  size_t Start = Old.substr(0, E.Begin).rfind('\n');
  unsigned From = Start == llvm::StringRef::npos ? 0 : Start + 1;
  size_t Break = Old.find('\n', E.End);
  unsigned To = Break == llvm::StringRef::npos ? Old.size() : Break + 1;
  std::string Copy = Old.str(); // NUL-terminated, for the lexer
  std::vector<Token> OldToks = lexRaw(Copy);
  auto Since = [](llvm::ArrayRef<Token> Toks, unsigned Offset) {
    return Toks.drop_front(
        llvm::partition_point(
            Toks, [&](const Token &T) { return T.Offset < Offset; }) -
        Toks.begin());
  };
  llvm::ArrayRef<Token> A = Since(OldToks, To), B = Since(NewToks, To + Delta);
  if (A.size() != B.size())
    return false;
  for (size_t I = 0; I < A.size(); ++I)
    if (A[I].Kind != B[I].Kind || A[I].Text != B[I].Text)
      return false;
  for (const Token &T : Since(NewToks, From))
    if (T.Offset < To + Delta && (T.isAt() || T.isIdent("codegen")))
      return false;
  return true;
}

bool editsOrdinaryCode(llvm::StringRef Path, llvm::StringRef Old,
                       llvm::StringRef New, const TextEdit &E) {
  llvm::StringRef Removed = Old.slice(E.Begin, E.End);
  bool Quotes = false;
  for (llvm::StringRef Part : {Removed, llvm::StringRef(E.Text)}) {
    if (Part.find_first_of("\r@#\\") != llvm::StringRef::npos)
      return false;
    Quotes |= Part.find_first_of("\"'/") != llvm::StringRef::npos;
  }
  if ((Removed.contains('\n') || llvm::StringRef(E.Text).contains('\n')) &&
      (inDirectiveOrContinued(Old, E.Begin) ||
       inDirectiveOrContinued(Old, E.End)))
    return false;
  // Offsets below are the texts' own, which a unified text's are not.
  if ((Old.contains('\r') || Old.starts_with("\xEF\xBB\xBF")) &&
      (Quotes || Removed.contains('\n') ||
       llvm::StringRef(E.Text).contains('\n')))
    return false;
  UnifiedText Unified(New);
  SourceFile File(Path.str(), Unified.take());
  auto Scanned = scan(File);
  if (!Scanned) {
    llvm::consumeError(Scanned.takeError());
    return false;
  }
  if (Quotes && !lexesAlikeAfterTheEdit(Old, Scanned->Tokens, E))
    return false;
  llvm::StringSet<> Names = declaredMetaNames(*Scanned);
  if (mayDefineMetaMacros(*Scanned, Names))
    return false;
  for (llvm::StringRef Reserved : {"codegen", "__nvvm_arch", "nvvm_arch_t"})
    Names.insert(Reserved);
  // The words the edit touches, in the new text and in the old.
  auto Touched = [&](llvm::StringRef Text, size_t Begin, size_t End) {
    while (Begin > 0 && isWordChar(Text[Begin - 1]))
      --Begin;
    while (End < Text.size() && isWordChar(Text[End]))
      ++End;
    llvm::SmallVector<llvm::StringRef, 4> Words;
    llvm::StringRef Span = Text.slice(Begin, End);
    while (!Span.empty()) {
      size_t W = 0;
      while (W < Span.size() && isWordChar(Span[W]))
        ++W;
      if (W)
        Words.push_back(Span.take_front(W));
      Span = Span.drop_front(std::max<size_t>(W, 1));
    }
    return Words;
  };
  for (llvm::StringRef W : Touched(New, E.Begin, E.Begin + E.Text.size()))
    if (Names.contains(W))
      return false;
  for (llvm::StringRef W : Touched(Old, E.Begin, E.End))
    if (Names.contains(W))
      return false;
  return true;
}

bool isDialect(llvm::StringRef Path, llvm::StringRef Text) {
  UnifiedText Unified(Text);
  SourceFile File(Path.str(), Unified.take());
  auto Scanned = scan(File);
  if (!Scanned) {
    llvm::consumeError(Scanned.takeError());
    return true;
  }
  if (!Scanned->Nodes.empty() && !walkNodes(Scanned->Nodes, [](const Node &N) {
        return N.Kind == NodeKind::Text ? WalkNext::Children : WalkNext::Stop;
      }))
    return true;
  for (const Token &T : Scanned->Tokens)
    if (T.isIdent("__nvvm_arch") || T.isIdent("nvvm_arch_t"))
      return true;
  return false;
}

std::optional<std::string> uriToPath(llvm::StringRef Uri) {
  if (!Uri.consume_front("file://"))
    return std::nullopt;
  std::string Path;
  for (size_t I = 0; I < Uri.size(); ++I) {
    unsigned Byte;
    if (Uri[I] == '%' && I + 2 < Uri.size() &&
        !Uri.substr(I + 1, 2).getAsInteger(16, Byte)) {
      Path += char(Byte);
      I += 2;
    } else {
      Path += Uri[I];
    }
  }
  return Path;
}

std::string pathToUri(llvm::StringRef Path) {
  std::string Uri = "file://";
  for (unsigned char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-_.~").contains(C))
      Uri += C;
    else
      Uri += "%" + llvm::utohexstr(C, /*LowerCase=*/false, /*Width=*/2);
  }
  return Uri;
}

} // namespace metacu
