//===- MetaNames.h - What meta code declares and what it refers to --------===//
//
// Meta declarations are C++ that only the interpreter compiles, but two
// stages need to know their names before that: the host slice (so a meta
// variable named like an ordinary declaration does not drag that
// declaration into the generator) and the lowering (so later uses of a meta
// variable in ordinary code are replaced by constants). A token-level reading
// of the declaration suffices for the declarator forms C++ allows.
//
//===----------------------------------------------------------------------===//
#ifndef METACU_EXPAND_METANAMES_H
#define METACU_EXPAND_METANAMES_H

#include "expand/Scan.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace metacu {

struct DeclaredNames {
  /// Whether the tokens form a declaration (as opposed to an expression).
  bool IsDeclaration = false;
  /// Variables, functions and structured bindings it introduces.
  std::vector<std::string> Values;
  /// Types, type aliases and templates it introduces.
  std::vector<std::string> Types;
  /// For 'enum' declarations: the enumerators, in order.
  std::vector<std::string> Enumerators;
  bool IsScopedEnum = false;
};

/// Reads a declaration statement (without its final ';').
DeclaredNames declaredNames(llvm::ArrayRef<Token> Toks);

/// Reads the head of a '@meta for': the loop variables it declares, for the
/// classic form ('int i = 0; i < n; ++i') and the ranged form
/// ('auto [k, v] : table').
std::vector<std::string> loopVariables(llvm::ArrayRef<Token> Head);

/// Whether \p Name is a C++ keyword (or a CUDA one such as __global__).
bool isKeyword(llvm::StringRef Name);

/// The parts of a 'static_assert(COND)' or 'static_assert(COND, "msg")'
/// whose keyword is \p Toks[I], as token indices of \p Toks.
struct StaticAssertParts {
  /// The condition: [CondBegin, CondEnd).
  unsigned CondBegin = 0, CondEnd = 0;
  /// The message's string literals: [MsgBegin, MsgEnd), empty if none.
  unsigned MsgBegin = 0, MsgEnd = 0;
  /// The ')' that closes the arguments.
  unsigned Close = 0;
};
std::optional<StaticAssertParts> staticAssertParts(llvm::ArrayRef<Token> Toks,
                                                   unsigned I);

/// The names meta code in \p Scan declares, anywhere: meta statements'
/// declarations and meta loops' variables.
llvm::StringSet<> declaredMetaNames(const ScanResult &Scan);

/// The names meta code in \p Scan refers to, less those that meta code
/// declares itself: what the host slice must resolve. The condition of an
/// ordinary static_assert that names a meta variable counts as meta code:
/// the lowering checks it at generation time where it can. An unqualified use
/// is recorded as "name", a qualified one as "qualifier::name" (the qualifier
/// being the identifier right before '::'). Member names after '.' and '->'
/// are left out: they are not namespace-scope declarations.
llvm::StringSet<> metaIdentifiers(const ScanResult &Scan);

} // namespace metacu

#endif
