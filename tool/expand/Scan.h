//===- Scan.h - Stage 1: find the meta constructs of the input ------------===//
//
// Lexes the input with clang::Lexer in raw mode (so comments, string and raw
// string literals, digraphs and line continuations are Clang's business) and
// builds a tree of meta constructs over byte ranges of the input. Nothing is
// interpreted here: meta code is kept as ranges for the lowering stage.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_SCAN_H
#define METACU_EXPAND_SCAN_H

#include "support/SourceFile.h"
#include "support/Tokens.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <vector>

namespace metacu {

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
  /// Braced: the text between the braces. A brace may be the digraph '<%',
  /// so this is not Body less one byte at each end.
  Range Inner;
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
  /// Codegen: written 'using if codegen': its branches' braces open no
  /// scope in a function body either, so what they declare is declared
  /// after the chain.
  bool Using = false;
  /// Malformed: what is wrong, and where.
  std::string Error;
  unsigned ErrorOffset = 0;
};

/// What walkNodes() does after visiting a node.
enum class WalkNext {
  Children, // visit what the node's branches hold, then its next sibling
  Siblings, // leave its branches out
  Stop,     // end the walk
};

/// Visits \p Nodes and everything their branches hold, in source order,
/// each node before its branches. Returns false if \p Visit stopped it.
bool walkNodes(llvm::ArrayRef<Node> Nodes,
               llvm::function_ref<WalkNext(const Node &)> Visit);

struct ScanResult {
  std::vector<Token> Tokens;
  std::vector<Node> Nodes;

  /// Index of the first token at or after \p Offset.
  unsigned tokenAt(unsigned Offset) const;
  /// The tokens of the byte range \p R.
  llvm::ArrayRef<Token> tokensIn(Range R) const;
};

/// Scans \p File. A construct that does not parse becomes a Malformed node
/// (see there); errors are LocatedErrors pointing at the offending token.
/// \p Skipped: the regions the preprocessor skips with the user's flags,
/// once known (the host slice's); brackets then pair as in the text it
/// keeps, where a block opened differently in each branch of a conditional
/// is one block.
llvm::Expected<ScanResult> scan(const SourceFile &File,
                                std::vector<Range> Skipped = {});

} // namespace metacu

#endif
