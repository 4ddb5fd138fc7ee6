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
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
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

struct Token {
  clang::tok::TokenKind Kind = clang::tok::unknown;
  unsigned Offset = 0;
  unsigned Length = 0;
  bool StartOfLine = false;
  /// Part of a preprocessor directive line (the '#' included).
  bool InDirective = false;
  /// In a region the preprocessor skips with the user's flags, when the
  /// lexing was told of them.
  bool Skipped = false;
  /// For a bracket ((), [], {}): the distance in tokens to the bracket it
  /// pairs with, positive from an opening bracket, negative from a closing
  /// one; 0 if it pairs with none. Relative, so that it holds in any slice
  /// of the token vector. Brackets on a preprocessor directive line pair
  /// within that line, and those of a skipped region within that region;
  /// the others pair across directive lines and skipped regions, as the
  /// compiler sees them after preprocessing.
  int Partner = 0;
  llvm::StringRef Text;

  unsigned end() const { return Offset + Length; }
  bool is(clang::tok::TokenKind K) const { return Kind == K; }
  bool isIdent() const { return Kind == clang::tok::raw_identifier; }
  bool isIdent(llvm::StringRef S) const { return isIdent() && Text == S; }
  /// '@', which raw C++ lexing returns as an unknown token.
  bool isAt() const { return Kind == clang::tok::unknown && Text == "@"; }
  bool isOpenBracket() const {
    return is(clang::tok::l_paren) || is(clang::tok::l_square) ||
           is(clang::tok::l_brace);
  }
  bool isCloseBracket() const {
    return is(clang::tok::r_paren) || is(clang::tok::r_square) ||
           is(clang::tok::r_brace);
  }
};

/// Lexes \p Text (a complete buffer, NUL-terminated) in raw C++20 mode and
/// pairs its brackets. Offsets are relative to \p Text. \p Skipped: the
/// regions the preprocessor skips (ascending), if known.
std::vector<Token> lexRaw(llvm::StringRef Text,
                          llvm::ArrayRef<Range> Skipped = {});

/// Where a block comment that \p Text never closes starts, at or after
/// \p From (a complete buffer, NUL-terminated). Clang does not diagnose
/// one in a region the preprocessor skips, where it swallows the #endif
/// ("unterminated conditional directive"); nvcc's preprocessor names the
/// comment.
std::optional<unsigned> unterminatedBlockComment(llvm::StringRef Text,
                                                 unsigned From);

/// Whether a bracket in one of \p Regions pairs with none or with one
/// outside that region: where the text the preprocessor keeps pairs them
/// otherwise.
bool bracketsCross(llvm::ArrayRef<Token> Toks, llvm::ArrayRef<Range> Regions);

/// The index of the bracket \p Toks[I] pairs with, if it has one inside
/// \p Toks.
std::optional<unsigned> partnerOf(llvm::ArrayRef<Token> Toks, unsigned I);

/// One past the group the opening bracket \p Toks[I] starts: the index
/// after its partner, or Toks.size() if it is not closed inside \p Toks.
unsigned skipGroup(llvm::ArrayRef<Token> Toks, unsigned I);

/// One past the '>' that closes the template argument list opened by the
/// '<' at \p Less ('>>' closes two), stepping over bracket groups; or
/// Toks.size() if none does.
unsigned skipAngles(llvm::ArrayRef<Token> Toks, unsigned Less);

/// The innermost opening bracket whose group holds \p Toks[I] (tokens of
/// directive lines are not looked at unless \p Toks[I] is on one), if any.
std::optional<unsigned> enclosingOpen(llvm::ArrayRef<Token> Toks, unsigned I);

} // namespace metacu

#endif
