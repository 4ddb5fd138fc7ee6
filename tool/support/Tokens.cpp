//===- Tokens.cpp ---------------------------------------------------------===//
#include "support/Tokens.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"
#include <algorithm>

namespace tok = clang::tok;

namespace metacu {

static clang::LangOptions cudaLangOptions() {
  clang::LangOptions LO;
  LO.CPlusPlus = LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = 1;
  LO.CPlusPlus20 = 1;
  LO.Digraphs = 1;
  LO.Bool = 1;
  LO.LineComment = 1;
  return LO;
}

/// A token's spelling after line splicing ('@me\<newline>ta' is '@meta').
/// Such tokens are rare; their spellings live as long as the process.
static llvm::StringRef spliceLines(llvm::StringRef Raw) {
  static llvm::BumpPtrAllocator Alloc;
  static llvm::StringSaver Saver(Alloc);
  std::string Out;
  for (size_t I = 0; I < Raw.size(); ++I) {
    if (Raw[I] == '\\') {
      size_t J = I + 1;
      while (J < Raw.size() && (Raw[J] == ' ' || Raw[J] == '\t'))
        ++J;
      if (J < Raw.size() && (Raw[J] == '\n' || Raw[J] == '\r')) {
        if (Raw[J] == '\r' && J + 1 < Raw.size() && Raw[J + 1] == '\n')
          ++J;
        I = J;
        continue;
      }
    }
    Out += Raw[I];
  }
  return Saver.save(Out);
}

/// Pairs the brackets of \p Toks with a stack, in one pass. A closing
/// bracket that does not match the innermost open one is left unpaired and
/// closes nothing, so one stray bracket does not unpair the rest. A
/// directive line, and a skipped region, pair on a stack of their own.
static void pairBrackets(std::vector<Token> &Toks) {
  std::vector<unsigned> Code, Directive, Region;
  for (unsigned I = 0; I < Toks.size(); ++I) {
    Token &T = Toks[I];
    if (T.InDirective && T.StartOfLine)
      Directive.clear();
    if (T.Skipped && (I == 0 || !Toks[I - 1].Skipped))
      Region.clear();
    std::vector<unsigned> &Open = T.InDirective ? Directive
                                  : T.Skipped   ? Region
                                                : Code;
    if (T.isOpenBracket()) {
      Open.push_back(I);
      continue;
    }
    if (!T.isCloseBracket() || Open.empty())
      continue;
    Token &O = Toks[Open.back()];
    clang::tok::TokenKind Want = O.is(tok::l_paren)    ? tok::r_paren
                                 : O.is(tok::l_square) ? tok::r_square
                                                       : tok::r_brace;
    if (!T.is(Want))
      continue;
    O.Partner = int(I - Open.back());
    T.Partner = -O.Partner;
    Open.pop_back();
  }
}

std::optional<unsigned> unterminatedBlockComment(llvm::StringRef Text,
                                                 unsigned From) {
  clang::LangOptions LO = cudaLangOptions();
  clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer L(Base, LO, Text.data(), Text.data() + From,
                 Text.data() + Text.size());
  // Only in this mode does the lexer return an unterminated comment.
  L.SetKeepWhitespaceMode(true);
  clang::Token T;
  for (bool AtEnd = false; !AtEnd;) {
    AtEnd = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    unsigned Begin = T.getLocation().getRawEncoding() - Base.getRawEncoding();
    llvm::StringRef Spelling = Text.substr(Begin, T.getLength());
    if (Spelling.starts_with("/*") &&
        (Spelling.size() < 4 || !Spelling.ends_with("*/")))
      return Begin;
  }
  return std::nullopt;
}

std::vector<Token> lexRaw(llvm::StringRef Text, llvm::ArrayRef<Range> Skipped) {
  std::vector<Token> Toks;
  clang::LangOptions LO = cudaLangOptions();
  // Raw lexing needs no SourceManager; locations are offsets from a base.
  clang::SourceLocation Base = clang::SourceLocation::getFromRawEncoding(1);
  clang::Lexer L(Base, LO, Text.data(), Text.data(), Text.data() + Text.size());
  L.SetCommentRetentionState(false);
  bool InDirective = false;
  while (true) {
    clang::Token T;
    bool AtEOF = L.LexFromRawLexer(T);
    if (T.is(tok::eof))
      break;
    Token R;
    R.Kind = T.getKind();
    R.Offset = T.getLocation().getRawEncoding() - Base.getRawEncoding();
    R.Length = T.getLength();
    R.StartOfLine = T.isAtStartOfLine() || Toks.empty();
    R.Text = Text.substr(R.Offset, R.Length);
    if (T.needsCleaning())
      R.Text = spliceLines(R.Text);
    if (R.StartOfLine)
      InDirective = R.is(tok::hash);
    R.InDirective = InDirective;
    // A region starts at a directive line and ends before one, so
    // consecutive skipped tokens are one region's.
    while (!Skipped.empty() && Skipped.front().End <= R.Offset)
      Skipped = Skipped.drop_front();
    R.Skipped =
        !InDirective && !Skipped.empty() && Skipped.front().contains(R.Offset);
    Toks.push_back(R);
    if (AtEOF)
      break;
  }
  pairBrackets(Toks);
  return Toks;
}

bool bracketsCross(llvm::ArrayRef<Token> Toks, llvm::ArrayRef<Range> Regions) {
  for (const Range &R : Regions) {
    // Each region's own tokens: nested branches cost their depth, no more.
    const Token *I = std::lower_bound(
        Toks.begin(), Toks.end(), R.Begin,
        [](const Token &T, unsigned Offset) { return T.Offset < Offset; });
    for (; I != Toks.end() && I->Offset < R.End; ++I) {
      if (I->InDirective || !(I->isOpenBracket() || I->isCloseBracket()))
        continue;
      std::optional<unsigned> P = partnerOf(Toks, unsigned(I - Toks.begin()));
      if (!P || !R.contains(Toks[*P].Offset))
        return true;
    }
  }
  return false;
}

std::optional<unsigned> partnerOf(llvm::ArrayRef<Token> Toks, unsigned I) {
  int P = int(I) + Toks[I].Partner;
  if (!Toks[I].Partner || P < 0 || unsigned(P) >= Toks.size())
    return std::nullopt;
  return unsigned(P);
}

unsigned skipGroup(llvm::ArrayRef<Token> Toks, unsigned I) {
  std::optional<unsigned> P = partnerOf(Toks, I);
  return P && *P > I ? *P + 1 : Toks.size();
}

unsigned skipAngles(llvm::ArrayRef<Token> Toks, unsigned Less) {
  unsigned Depth = 0;
  for (unsigned I = Less; I < Toks.size();) {
    const Token &T = Toks[I];
    if (T.isOpenBracket()) {
      I = skipGroup(Toks, I);
      continue;
    }
    if (T.is(tok::less)) {
      ++Depth;
    } else if (T.is(tok::greater) || T.is(tok::greatergreater)) {
      unsigned Closes = T.is(tok::greatergreater) ? 2 : 1;
      if (Depth <= Closes)
        return I + 1;
      Depth -= Closes;
    }
    ++I;
  }
  return Toks.size();
}

std::optional<unsigned> enclosingOpen(llvm::ArrayRef<Token> Toks, unsigned I) {
  bool Directive = I < Toks.size() && Toks[I].InDirective;
  for (unsigned K = I; K-- > 0;) {
    const Token &T = Toks[K];
    if (T.InDirective != Directive)
      continue;
    if (T.isCloseBracket()) {
      // A group closed before I: its opening bracket is not open at I.
      if (std::optional<unsigned> P = partnerOf(Toks, K))
        K = *P;
      continue;
    }
    if (T.isOpenBracket())
      return K;
    // A directive's brackets pair within its line.
    if (Directive && T.StartOfLine)
      break;
  }
  return std::nullopt;
}

} // namespace metacu
