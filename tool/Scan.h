//===- Scan.h - Stage 1: find the meta constructs of the input ------------===//
//
// Lexes the input with clang::Lexer in raw mode (so comments, string and raw
// string literals, digraphs and line continuations are Clang's business) and
// builds a tree of meta constructs over byte ranges of the input. Nothing is
// interpreted here: meta code is kept as ranges for the lowering stage.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_SCAN_H
#define METACU_SCAN_H

#include "SourceFile.h"

#include "clang/Basic/TokenKinds.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
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

enum class NodeKind {
  Text,    // ordinary code
  Stmt,    // @meta STATEMENT
  For,     // @meta for (...) BODY (classic or ranged)
  ForEnum, // @meta for enum (DECL : ENUM) BODY
  While,   // @meta while (COND) BODY
  If,      // @meta if (COND) A [else B]
  Codegen, // if codegen (COND) A [else B]
  Splice,  // @(EXPR)
  /// A construct that does not parse. Only an error if the preprocessor
  /// keeps its region: '#if 0' blocks may hold anything.
  Malformed,
};

struct Node;

/// A loop body, or one branch of an if chain.
struct Branch {
  /// The condition inside its parentheses; empty for a final 'else'.
  Range Cond;
  bool IsElse = false;
  /// The body statement, braces included when Braced.
  Range Body;
  bool Braced = false;
  /// What the body contains: the inside of the braces, or the statement.
  std::vector<Node> Nodes;
};

struct Node {
  NodeKind Kind = NodeKind::Text;
  /// The whole construct: from '@' (or 'if') to its last byte.
  Range Whole;
  /// Stmt: the statement after '@meta'. For, ForEnum, While, If: inside the
  /// parentheses. Splice: inside the parentheses.
  Range Head;
  /// Token index range of Whole.
  unsigned TokBegin = 0, TokEnd = 0;
  /// For/ForEnum/While: the body. If/Codegen: the chain of branches.
  std::vector<Branch> Branches;
  /// Malformed: what is wrong, and where.
  std::string Error;
  unsigned ErrorOffset = 0;
};

struct ScanResult {
  std::vector<Token> Tokens;
  std::vector<Node> Nodes;

  /// Index of the first token at or after \p Offset.
  unsigned tokenAt(unsigned Offset) const;
};

/// Scans \p File. A construct that does not parse becomes a Malformed node
/// (see there); errors are LocatedErrors pointing at the offending token.
llvm::Expected<ScanResult> scan(const SourceFile &File);

/// Lexes \p Text (a complete buffer, NUL-terminated) in raw C++20 mode.
/// Offsets are relative to \p Text.
std::vector<Token> lexRaw(llvm::StringRef Text);

} // namespace metacu

#endif
