//===- MetaCompletion.cpp -------------------------------------------------===//
#include "lsp/MetaCompletion.h"
#include "expand/Scan.h"
#include "support/SourceFile.h"

#include "llvm/ADT/StringExtras.h"

namespace metacu {

namespace {

bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_'; }

/// The meta statement before \p Before that declares \p Name: its text.
std::optional<std::string> metaDeclaration(const SourceFile &File,
                                           const ScanResult &Scanned,
                                           llvm::StringRef Name,
                                           unsigned Before) {
  std::optional<std::string> Found;
  walkNodes(Scanned.Nodes, [&](const Node &N) {
    if (N.Whole.Begin >= Before)
      return WalkNext::Stop;
    if (N.Kind != NodeKind::Stmt)
      return WalkNext::Children;
    llvm::ArrayRef<Token> Toks = Scanned.tokensIn(N.Head);
    // 'T name{...}', 'T name = ...', 'T name(...)', 'T name;': the name
    // after at least one token of its type.
    for (size_t I = 1; I < Toks.size(); ++I) {
      if (!Toks[I].isIdent(Name))
        continue;
      bool Next = I + 1 == Toks.size() || Toks[I + 1].is(clang::tok::l_brace) ||
                  Toks[I + 1].is(clang::tok::equal) ||
                  Toks[I + 1].is(clang::tok::l_paren) ||
                  Toks[I + 1].is(clang::tok::semi) ||
                  Toks[I + 1].is(clang::tok::l_square);
      if (Next &&
          (Toks[I - 1].isIdent() || Toks[I - 1].is(clang::tok::greater) ||
           Toks[I - 1].is(clang::tok::amp) ||
           Toks[I - 1].is(clang::tok::star))) {
        Found = File.text().slice(N.Head.Begin, N.Head.End).str();
        break;
      }
    }
    return WalkNext::Siblings;
  });
  return Found;
}

} // namespace

std::optional<CompletionProbe> metaMemberProbe(llvm::StringRef Path,
                                               llvm::StringRef UserText,
                                               unsigned Cursor,
                                               llvm::StringRef Body) {
  if (Cursor > UserText.size())
    return std::nullopt;
  unsigned Word = Cursor;
  while (Word > 0 && isIdentChar(UserText[Word - 1]))
    --Word;
  unsigned Access = Word;
  if (Access >= 1 && UserText[Access - 1] == '.')
    Access -= 1;
  else if (Access >= 2 && UserText.slice(Access - 2, Access) == "->")
    Access -= 2;
  else
    return std::nullopt;
  // The chain before it: names, '.', '->', subscripts.
  unsigned Root = Access;
  int Depth = 0;
  while (Root > 0) {
    char C = UserText[Root - 1];
    if (C == ']')
      ++Depth;
    else if (C == '[' && Depth > 0)
      --Depth;
    else if (!(Depth > 0 || isIdentChar(C) || C == '.' ||
               (C == '>' && Root >= 2 && UserText[Root - 2] == '-') ||
               (C == '-' && Root < UserText.size() && UserText[Root] == '>')))
      break;
    --Root;
  }
  unsigned NameEnd = Root;
  while (NameEnd < Access && isIdentChar(UserText[NameEnd]))
    ++NameEnd;
  llvm::StringRef Name = UserText.slice(Root, NameEnd);
  if (Name.empty() || llvm::isDigit(Name.front()))
    return std::nullopt;

  UnifiedText Unified(UserText);
  SourceFile File(Path.str(), Unified.take());
  auto Scanned = scan(File);
  if (!Scanned) {
    llvm::consumeError(Scanned.takeError());
    return std::nullopt;
  }
  auto Decl = metaDeclaration(File, *Scanned, Name, Unified.offset(Root));
  if (!Decl)
    return std::nullopt;
  CompletionProbe P;
  P.Text = Body.str();
  if (!P.Text.empty() && P.Text.back() != '\n')
    P.Text += '\n';
  P.Text += "static void metacu_completion_probe() {\n" + *Decl + ";\n" +
            UserText.slice(Root, Cursor).str();
  P.Cursor = P.Text.size();
  P.Text += "\n}\n";
  P.WordBegin = Word;
  return P;
}

} // namespace metacu
