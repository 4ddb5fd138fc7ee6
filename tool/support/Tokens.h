//===- Tokens.h - The input as raw C++ tokens -----------------------------===//
//
// Every part of metacu that reads source text token by token (the scanner,
// the reading of meta declarations, the lowering, the audit) reads the
// tokens clang::Lexer gives in raw mode: comments, string and raw string
// literals, digraphs and line continuations are Clang's business.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SUPPORT_TOKENS_H
#define METACU_SUPPORT_TOKENS_H

#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace metacu {

/// A half-open byte range [Begin, End) of the input.
struct Range {
  unsigned Begin = 0;
  unsigned End = 0;
  bool empty() const { return Begin >= End; }
  bool contains(unsigned Offset) const {
    return Begin <= Offset && Offset < End;
  }
};

/// Whether any of \p Ranges contains \p Offset.
inline bool anyContains(const std::vector<Range> &Ranges, unsigned Offset) {
  for (const Range &R : Ranges)
    if (R.contains(Offset))
      return true;
  return false;
}

struct Token {
  clang::tok::TokenKind Kind = clang::tok::unknown;
  unsigned Offset = 0;
  unsigned Length = 0;
  bool StartOfLine = false;
  /// Part of a preprocessor directive line (the '#' included).
  bool InDirective = false;
  llvm::StringRef Text;

  unsigned end() const { return Offset + Length; }
  bool is(clang::tok::TokenKind K) const { return Kind == K; }
  bool isIdent() const { return Kind == clang::tok::raw_identifier; }
  bool isIdent(llvm::StringRef S) const { return isIdent() && Text == S; }
  /// '@', which raw C++ lexing returns as an unknown token.
  bool isAt() const { return Kind == clang::tok::unknown && Text == "@"; }
};

/// Lexes \p Text (a complete buffer, NUL-terminated) in raw C++20 mode.
/// Offsets are relative to \p Text.
std::vector<Token> lexRaw(llvm::StringRef Text);

} // namespace metacu

#endif
