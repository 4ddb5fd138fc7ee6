//===- Shards.cpp - A batch's candidates compiled in shards ---------------===//
#include "Shards.h"

#include "support/Tokens.h"

#include "llvm/ADT/StringMap.h"
#include <algorithm>
#include <map>
#include <optional>

using namespace metacu;
using namespace metacu::tune;
namespace tok = clang::tok;

std::string metacu::tune::shardMacro(llvm::StringRef Name) {
  return "METACU_TUNE_IN_SHARD_" + Name.str();
}

namespace {

/// A `#line N "F"` (or `# N "F"`) directive: from physical line Next on,
/// the presumed line is N + (physical - Next), in file F (as spelled, quotes
/// included; empty when the directive names none).
struct LineMark {
  unsigned Offset;
  unsigned Next;
  unsigned Line;
  std::string File;
};

class Lines {
public:
  explicit Lines(llvm::StringRef Text) {
    for (size_t I = 0; I < Text.size(); ++I)
      if (Text[I] == '\n')
        Newlines.push_back(I);
  }
  /// The physical line (from 1) of \p Offset.
  unsigned of(unsigned Offset) const {
    return 1 +
           unsigned(std::lower_bound(Newlines.begin(), Newlines.end(), Offset) -
                    Newlines.begin());
  }

private:
  std::vector<size_t> Newlines;
};

/// The #line directives of \p Toks, in order.
std::vector<LineMark> lineMarks(llvm::ArrayRef<Token> Toks, const Lines &L) {
  std::vector<LineMark> Marks;
  for (size_t I = 0; I + 1 < Toks.size(); ++I) {
    if (!Toks[I].is(tok::hash) || !Toks[I].StartOfLine)
      continue;
    size_t J = I + 1;
    if (Toks[J].isIdent("line"))
      ++J;
    if (J >= Toks.size() || !Toks[J].InDirective || Toks[J].StartOfLine ||
        !Toks[J].is(tok::numeric_constant))
      continue;
    unsigned N = 0;
    if (Toks[J].Text.getAsInteger(10, N))
      continue;
    std::string File;
    if (J + 1 < Toks.size() && !Toks[J + 1].StartOfLine &&
        Toks[J + 1].is(tok::string_literal))
      File = Toks[J + 1].Text.str();
    Marks.push_back({Toks[I].Offset, L.of(Toks[I].Offset) + 1, N, File});
  }
  return Marks;
}

/// `#line` restoring the presumed line of \p Offset after inserted lines,
/// or nothing when the text has no #line before it (its physical lines are
/// then its own, and the inserted ones are part of them).
std::string restoreLine(const std::vector<LineMark> &Marks, const Lines &L,
                        unsigned Offset) {
  auto It = std::upper_bound(
      Marks.begin(), Marks.end(), Offset,
      [](unsigned O, const LineMark &M) { return O < M.Offset; });
  if (It == Marks.begin())
    return "";
  const LineMark &M = *std::prev(It);
  std::string S = "#line " + std::to_string(M.Line + L.of(Offset) - M.Next);
  if (!M.File.empty())
    S += " " + M.File;
  return S + "\n";
}

/// The index of the candidate \p Ident names: its name, or its name then
/// '_' and more (a kernel of the candidate's own, like "<name>_init").
std::optional<size_t> candidateOf(llvm::StringRef Ident,
                                  const llvm::StringMap<size_t> &ByName) {
  if (auto It = ByName.find(Ident); It != ByName.end())
    return It->second;
  for (size_t U = Ident.find('_'); U != llvm::StringRef::npos;
       U = Ident.find('_', U + 1))
    if (auto It = ByName.find(Ident.take_front(U)); It != ByName.end())
      return It->second;
  return std::nullopt;
}

/// The previous token of \p Toks before \p I that is not on a directive
/// line, stepping over bracket groups; -1 at the start.
long previousOutside(llvm::ArrayRef<Token> Toks, long I) {
  for (--I; I >= 0; --I) {
    if (Toks[I].InDirective)
      continue;
    if (Toks[I].isCloseBracket())
      if (auto P = partnerOf(Toks, unsigned(I)); P && long(*P) < I) {
        I = long(*P);
        continue;
      }
    return I;
  }
  return -1;
}

/// Whether the declaration whose name is \p Toks[Name] says `__global__`:
/// its tokens back to the end of the previous declaration or the start of
/// the enclosing scope.
bool declaresKernel(llvm::ArrayRef<Token> Toks, unsigned Name) {
  for (long I = previousOutside(Toks, Name); I >= 0;
       I = previousOutside(Toks, I)) {
    const Token &T = Toks[I];
    if (T.is(tok::semi) || T.is(tok::l_brace) || T.is(tok::r_brace))
      return false;
    if (T.isIdent("__global__"))
      return true;
  }
  return false;
}

/// The opening brace of the body of the function whose name is
/// \p Toks[Name], if that name starts a function definition.
std::optional<unsigned> bodyOf(llvm::ArrayRef<Token> Toks, unsigned Name) {
  unsigned I = Name + 1;
  while (I < Toks.size() && Toks[I].InDirective)
    ++I;
  if (I >= Toks.size() || !Toks[I].is(tok::l_paren))
    return std::nullopt;
  // After the parameters: qualifiers, attributes, a trailing return type,
  // then the body; anything that ends an expression or declaration first
  // means this is no definition.
  for (I = skipGroup(Toks, I); I < Toks.size();) {
    const Token &T = Toks[I];
    if (T.InDirective) {
      ++I;
    } else if (T.is(tok::l_brace)) {
      return partnerOf(Toks, I) ? std::optional<unsigned>(I) : std::nullopt;
    } else if (T.is(tok::l_paren) || T.is(tok::l_square)) {
      I = skipGroup(Toks, I);
    } else if (T.is(tok::semi) || T.is(tok::comma) || T.is(tok::equal) ||
               T.isCloseBracket() || T.is(tok::colon)) {
      return std::nullopt;
    } else {
      ++I;
    }
  }
  return std::nullopt;
}

/// Whether the preprocessor conditionals of \p Toks[Open, Close] are
/// balanced, so that an #if around them nests (braces paired across an
/// #if's branches would not be the body's).
bool conditionalsBalance(llvm::ArrayRef<Token> Toks, unsigned Open,
                         unsigned Close) {
  int Depth = 0;
  for (unsigned I = Open; I < Close; ++I) {
    if (!Toks[I].is(tok::hash) || !Toks[I].StartOfLine || I + 1 >= Close)
      continue;
    llvm::StringRef D = Toks[I + 1].Text;
    if (D == "if" || D == "ifdef" || D == "ifndef")
      ++Depth;
    else if (D == "endif" && --Depth < 0)
      return false;
    else if ((D == "else" || D == "elif" || D == "elifdef" ||
              D == "elifndef") &&
             Depth == 0)
      return false;
  }
  return Depth == 0;
}

} // namespace

GuardedBatch metacu::tune::guardCandidates(llvm::StringRef Text,
                                           llvm::ArrayRef<std::string> Names) {
  llvm::StringMap<size_t> ByName;
  for (size_t I = 0; I < Names.size(); ++I)
    ByName.try_emplace(Names[I], I);
  // lexRaw wants the buffer NUL-terminated.
  std::string Buffer = Text.str();
  std::vector<Token> Toks = lexRaw(Buffer);
  Lines L(Buffer);
  std::vector<LineMark> Marks = lineMarks(Toks, L);

  GuardedBatch Out;
  Out.Weights.assign(Names.size(), 0);
  std::map<unsigned, std::string> Inserts;
  for (unsigned I = 0; I < Toks.size(); ++I) {
    const Token &T = Toks[I];
    if (T.InDirective || !T.isIdent())
      continue;
    std::optional<size_t> C = candidateOf(T.Text, ByName);
    if (!C)
      continue;
    std::optional<unsigned> Open = bodyOf(Toks, I);
    if (!Open || !declaresKernel(Toks, I))
      continue;
    unsigned Close = *partnerOf(Toks, *Open);
    if (!conditionalsBalance(Toks, *Open, Close))
      continue;
    unsigned Begin = Toks[*Open].end(), End = Toks[Close].Offset;
    // Tokens, not bytes: the body's #line directives carry the input's
    // path, and a weight that changed with the checkout's location would
    // change the shard plan with it.
    for (unsigned J = *Open + 1; J < Close; ++J)
      Out.Weights[*C] += !Toks[J].InDirective;
    // += : an empty body's two inserts fall at one offset, in this order.
    Inserts[Begin] += "\n#if !defined(METACU_TUNE_SHARD) || defined(" +
                      shardMacro(Names[*C]) + ")\n" +
                      restoreLine(Marks, L, Begin);
    Inserts[End] += "\n#endif\n" + restoreLine(Marks, L, End);
    I = Close;
  }
  size_t At = 0;
  for (const auto &[Offset, Insert] : Inserts) {
    Out.Text += llvm::StringRef(Buffer).slice(At, Offset);
    Out.Text += Insert;
    At = Offset;
  }
  Out.Text += llvm::StringRef(Buffer).drop_front(At);
  return Out;
}
