//===- Tokens.cpp ---------------------------------------------------------===//
#include "support/Tokens.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/StringSaver.h"

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

std::vector<Token> lexRaw(llvm::StringRef Text) {
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
    Toks.push_back(R);
    if (AtEOF)
      break;
  }
  return Toks;
}

} // namespace metacu
